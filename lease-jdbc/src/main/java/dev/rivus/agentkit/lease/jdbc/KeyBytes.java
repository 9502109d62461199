/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.io.ByteArrayOutputStream;
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

  private KeyBytes() {}

  static byte[] encode(String key) {
    if (isWellFormed(key)) {
      return key.getBytes(StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(key.length() * 3);
    for (int i = 0; i < key.length(); ) {
      int codePoint = key.codePointAt(i); // an unpaired surrogate comes back as itself
      i += Character.charCount(codePoint);
      writeCodePoint(out, codePoint);
    }
    return out.toByteArray();
  }

  /**
   * Decodes what {@link #encode} wrote.
   *
   * @throws IllegalArgumentException if the bytes are not WTF-8
   */
  static String decode(byte[] bytes) {
    StringBuilder key = new StringBuilder(bytes.length);
    for (int i = 0; i < bytes.length; ) {
      int lead = bytes[i] & 0xFF;
      int length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
      if (length == 0 || i + length > bytes.length) {
        throw new IllegalArgumentException("stored key is not WTF-8 at byte " + i);
      }
      int codePoint = length == 1 ? lead : lead & (0xFF >>> (length + 1));
      for (int k = 1; k < length; k++) {
        int next = bytes[i + k] & 0xFF;
        if ((next & 0xC0) != 0x80) {
          throw new IllegalArgumentException("stored key is not WTF-8 at byte " + (i + k));
        }
        codePoint = (codePoint << 6) | (next & 0x3F);
      }
      key.appendCodePoint(codePoint);
      i += length;
    }
    return key.toString();
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

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private static boolean isWellFormed(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= key.length() || !Character.isLowSurrogate(key.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static void writeCodePoint(ByteArrayOutputStream out, int codePoint) {
    if (codePoint < 0x80) {
      out.write(codePoint);
    } else if (codePoint < 0x800) {
      out.write(0xC0 | (codePoint >>> 6));
      out.write(0x80 | (codePoint & 0x3F));
    } else if (codePoint < 0x10000) {
      out.write(0xE0 | (codePoint >>> 12));
      out.write(0x80 | ((codePoint >>> 6) & 0x3F));
      out.write(0x80 | (codePoint & 0x3F));
    } else {
      out.write(0xF0 | (codePoint >>> 18));
      out.write(0x80 | ((codePoint >>> 12) & 0x3F));
      out.write(0x80 | ((codePoint >>> 6) & 0x3F));
      out.write(0x80 | (codePoint & 0x3F));
    }
  }
}
