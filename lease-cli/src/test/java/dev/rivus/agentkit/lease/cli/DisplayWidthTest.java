/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DisplayWidthTest {

  @Test
  void latinAndAccentedLettersTakeOneColumnEach() {
    assertThat(DisplayWidth.of("deploy:prod")).isEqualTo(11);
    assertThat(DisplayWidth.of("café")).isEqualTo(4);
    assertThat(DisplayWidth.of("cafe\u0301")).as("e + combining acute").isEqualTo(4);
  }

  @Test
  void wideCharactersAndEmojiTakeTwo() {
    assertThat(DisplayWidth.of("日本語")).isEqualTo(6);
    assertThat(DisplayWidth.of("한국")).isEqualTo(4);
    assertThat(DisplayWidth.of("ｆｕｌｌ")).isEqualTo(8);
    assertThat(DisplayWidth.of("job-\uD83D\uDE80")).as("job- and a rocket").isEqualTo(6);
  }

  @Test
  void formatCharactersTakeNone() {
    assertThat(DisplayWidth.of("a\u200Bb")).isEqualTo(2);
  }
}
