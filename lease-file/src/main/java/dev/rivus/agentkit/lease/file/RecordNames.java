/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names of a key's files in the repository directory: {@code <prefix>-<hash>.json} for the
 * record and {@code .write.lock}, {@code .fence.lock} and {@code .json.tmp} beside it.
 *
 * <p>The prefix is at most {@value #PREFIX_LENGTH} characters of the key with everything but {@code
 * [A-Za-z0-9_-]} replaced by {@code _}, for people listing the directory. The hash (the first 128
 * bits of the SHA-256 of the key, in lower-case hex) makes the name unique, so keys that differ
 * only in case or only in replaced characters still get distinct files, also on case-insensitive
 * file systems. No name contains a separator, a dot segment or anything outside ASCII, so no key
 * reaches outside the directory.
 */
final class RecordNames {

  static final int PREFIX_LENGTH = 40;
  private static final int HASH_BYTES = 16;

  /** Never a byte of well-formed UTF-8, so it keeps the two hash inputs below apart. */
  private static final byte NOT_UTF8 = (byte) 0xFF;

  private final Path directory;
  private final String base;

  RecordNames(Path directory, String key) {
    this.directory = directory;
    this.base = baseName(key);
  }

  Path record() {
    return directory.resolve(base + ".json");
  }

  Path temporary() {
    return directory.resolve(base + ".json.tmp");
  }

  Path writeLock() {
    return directory.resolve(base + ".write.lock");
  }

  Path keyLockFile() {
    return directory.resolve(base + ".fence.lock");
  }

  static String baseName(String key) {
    StringBuilder name = new StringBuilder(PREFIX_LENGTH + 1 + HASH_BYTES * 2);
    for (int i = 0; i < key.length() && name.length() < PREFIX_LENGTH; i++) {
      char c = key.charAt(i);
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-';
      name.append(plain ? c : '_');
    }
    return name.append('-').append(HexFormat.of().formatHex(hash(key), 0, HASH_BYTES)).toString();
  }

  /**
   * SHA-256 of the key's UTF-8 bytes. A string with an unpaired surrogate has no UTF-8 form (the
   * encoder would replace it with {@code ?} and collide with the key that really has one), so such
   * a key is hashed as a marker byte followed by its UTF-16 code units.
   */
  private static byte[] hash(String key) {
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
    if (StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
      return sha256.digest(key.getBytes(StandardCharsets.UTF_8));
    }
    sha256.update(NOT_UTF8);
    ByteBuffer units = ByteBuffer.allocate(key.length() * 2);
    key.chars().forEach(c -> units.putChar((char) c));
    return sha256.digest(units.array());
  }
}
