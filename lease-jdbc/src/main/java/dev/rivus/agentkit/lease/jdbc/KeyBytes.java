/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import dev.rivus.agentkit.lease.support.KeyEncoding;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How a key is stored: as bytes (bytea) in WTF-8, the generalization of UTF-8 that also encodes
 * unpaired surrogates. For every well-formed key the bytes are exactly its UTF-8, so {@code
 * convert_from(lease_key, 'UTF8')} shows it in {@code psql}.
 *
 * <p>Why not a text column: a text column refuses NUL characters and unpaired surrogates. This
 * encoding is injective over all Java strings, so two keys never share a record, and the key is
 * only ever a bound parameter, never SQL text.
 */
final class KeyBytes {

  /** Never used itself, only cloned: a digest is not thread-safe. */
  private static final MessageDigest SHA_256 = newSha256();

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

  /**
   * The primary key of a key's row: the SHA-256 of its bytes. A B-tree entry holds at most about
   * 2.7 kB, and a key of 1024 characters can take 4 kB, so the key itself is stored beside it.
   */
  static byte[] hash(byte[] keyBytes) {
    return sha256().digest(keyBytes);
  }

  /**
   * The advisory lock of a key in a table: the first 64 bits of the SHA-256 of the table name, a
   * zero byte and the key's bytes, so that two tables in one database never share key locks.
   */
  static long lockId(String table, byte[] keyBytes) {
    MessageDigest digest = sha256();
    digest.update(table.getBytes(StandardCharsets.UTF_8));
    digest.update((byte) 0);
    digest.update(keyBytes);
    return ByteBuffer.wrap(digest.digest(), 0, Long.BYTES).getLong();
  }

  /**
   * A fresh SHA-256 digest, cloned from one made once: looking the algorithm up among the security
   * providers ({@code getInstance}) cost more than hashing a key, on every write.
   */
  private static MessageDigest sha256() {
    try {
      return (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      return newSha256(); // a provider whose digests cannot be cloned
    }
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
