/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;

/**
 * How a database tells listeners of a table's releases, where it can ({@link
 * Dialect#releaseNotices}): each release's statement sends a notice on the table's {@link
 * #channel}, carrying the {@link #payload} of its key, and a listening connection receives them.
 */
interface ReleaseNotices {

  /**
   * Starts listening on a connection held for it alone, in auto-commit mode.
   *
   * @return what receives the notices on that connection
   * @throws SQLException if the connection cannot listen; {@link NotSupported} if it never will
   */
  Receiver listen(Connection connection) throws SQLException;

  /**
   * Stops listening on a connection that {@link #listen} started, before it goes back to its pool.
   *
   * @throws SQLException if the connection failed
   */
  void unlisten(Connection connection) throws SQLException;

  /** The notices of one listening connection. */
  @FunctionalInterface
  interface Receiver {
    /**
     * Waits up to {@code timeoutMillis} for notices, and returns their payloads, as soon as there
     * are some.
     *
     * @return the payloads received, maybe none
     * @throws SQLException if the connection failed; notices may have been missed
     */
    List<String> receive(int timeoutMillis) throws SQLException;
  }

  /** The connection is not of a driver that can receive notices (a pool that cannot unwrap it). */
  final class NotSupported extends SQLException {
    private static final long serialVersionUID = 1L;

    NotSupported(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The channel of a table's releases: {@code lease_} and 16 hex digits of the SHA-256 of its name,
   * short of any limit on a channel's name, the same for every repository of that table.
   */
  static String channel(String table) {
    byte[] digest = sha256().digest(table.getBytes(StandardCharsets.UTF_8));
    return "lease_" + HexFormat.of().formatHex(digest, 0, 8);
  }

  /** The payload of a key's release: the hash of its row ({@link KeyBytes#hash}), in hex. */
  static String payload(String key) {
    return HexFormat.of().formatHex(KeyBytes.hash(KeyBytes.encode(key)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
