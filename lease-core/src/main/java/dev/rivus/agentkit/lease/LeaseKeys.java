/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Objects;

/**
 * The rule every lease key follows: any string of 1 to {@link #MAX_LENGTH} UTF-16 code units, as
 * {@link String#length()} counts them (a character outside the Basic Multilingual Plane, such as an
 * emoji, counts two). Keys may hold any characters (slashes, dots, unicode); repositories never let
 * a key escape their storage.
 */
public final class LeaseKeys {

  /** The longest key accepted, in UTF-16 code units ({@link String#length()}). */
  public static final int MAX_LENGTH = 1024;

  private LeaseKeys() {}

  /**
   * Checks a key against the rule.
   *
   * @param key the key to check
   * @return the key, for chaining
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key is empty or longer than {@link #MAX_LENGTH}, with a
   *     message that says which
   */
  public static String requireValid(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("lease key must not be empty");
    }
    if (key.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "lease key is "
              + key.length()
              + " UTF-16 code units long; the maximum is "
              + MAX_LENGTH
              + " (key starts with '"
              + key.substring(0, Character.isHighSurrogate(key.charAt(31)) ? 31 : 32)
              + "...')");
    }
    return key;
  }
}
