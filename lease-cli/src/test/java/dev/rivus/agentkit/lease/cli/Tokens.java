/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What tests may assume of fencing tokens: a key's first generation is the writer's wall clock in
 * microseconds since the epoch (so it lies between the clock read before the acquisition and the
 * clock read after it), and every later acquisition adds one.
 */
final class Tokens {

  private Tokens() {}

  /** The wall clock now, in microseconds since the epoch, as a first generation is made from. */
  static long microsNow() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }

  /**
   * Asserts that {@code token} is a key's first generation, written after {@code microsBefore}
   * (read with {@link #microsNow()}) and before now.
   */
  static long assertFirst(long token, long microsBefore) {
    assertThat(token)
        .as("a first generation is the wall clock in µs when it was written")
        .isBetween(microsBefore, microsNow());
    assertThat(Long.toString(token)).as("a token of this century").hasSize(16);
    return token;
  }

  /** {@link #assertFirst(long, long)} for a token printed by a command. */
  static long assertFirst(String token, long microsBefore) {
    return assertFirst(Long.parseLong(token), microsBefore);
  }
}
