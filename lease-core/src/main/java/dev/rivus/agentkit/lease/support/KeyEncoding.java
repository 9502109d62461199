/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Keys as bytes, for stores that keep a key in a binary column: WTF-8, the generalization of UTF-8
 * that also encodes unpaired surrogates. For every well-formed key the bytes are exactly its UTF-8,
 * so a database's own tools show it; and the encoding is injective over all Java strings, so two
 * keys never share a record (a text column would refuse a NUL or an unpaired surrogate, or replace
 * it with {@code '?'}). Stateless and thread-safe.
 */
public final class KeyEncoding {

  private KeyEncoding() {}

  /**
   * Encodes a key: its UTF-8 bytes if it is well formed, else WTF-8 (unpaired surrogates encoded as
   * their own three bytes). The encoding is injective over all Java strings.
   *
   * @param key any string
   * @return its bytes
   */
  public static byte[] encode(String key) {
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
   * @param bytes the stored bytes
   * @return the key
   * @throws IllegalArgumentException if the bytes are not WTF-8
   */
  public static String decode(byte[] bytes) {
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
