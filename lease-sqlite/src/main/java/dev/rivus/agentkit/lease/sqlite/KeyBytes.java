/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.support.KeyEncoding;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How a key is stored: as a BLOB in WTF-8, the generalization of UTF-8 that also encodes unpaired
 * surrogates. For every well-formed key the bytes are exactly its UTF-8, so {@code CAST(lease_key
 * AS TEXT)} shows it in the {@code sqlite3} shell.
 *
 * <p>Why not a TEXT column: sqlite-jdbc encodes strings with {@link String#getBytes} and so
 * replaces an unpaired surrogate with {@code '?'}; {@code "a\uD800"} and {@code "a?"} would then
 * share one record. This encoding is injective over all Java strings, so two keys never share a
 * record, and the key is only ever a bound parameter, never SQL text.
 */
final class KeyBytes {

  private KeyBytes() {}

  static byte[] encode(String key) {
    return KeyEncoding.encode(key);
  }

  /**
   * Decodes what {@link #encode} wrote.
   *
   * @throws IllegalArgumentException if the bytes are not WTF-8
   */
  static String decode(byte[] bytes) {
    return KeyEncoding.decode(bytes);
  }

  /** A 64-bit hash of the key, for picking its byte in the key lock file. */
  static long hash64(String key) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(encode(key));
      return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
