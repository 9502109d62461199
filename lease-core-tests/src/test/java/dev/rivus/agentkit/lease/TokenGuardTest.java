/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenGuardTest {

  @Test
  void admitsEqualOrHigherTokensAndRefusesLowerOnes() {
    TokenGuard tokens = new TokenGuard();

    assertThat(tokens.admit("k", 5)).isTrue();
    assertThat(tokens.admit("k", 5)).isTrue();
    assertThat(tokens.admit("k", 4)).isFalse();
    assertThat(tokens.admit("k", 7)).isTrue();
    assertThat(tokens.admit("k", 6)).isFalse();
    assertThat(tokens.highest("k")).isEqualTo(7);
  }

  @Test
  void keepsKeysApart() {
    TokenGuard tokens = new TokenGuard();

    tokens.admit("a", 9);

    assertThat(tokens.admit("b", 1)).isTrue();
    assertThat(tokens.highest("b")).isEqualTo(1);
  }
}
