/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseRepository.KeyWatch;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The wake-up flags of {@link KeyWatches}: kept until an await takes them, by key, until closed.
 */
class KeyWatchesTest {

  private final KeyWatches watches = new KeyWatches();

  @Test
  void aWakeUpBeforeTheAwaitIsKeptAndTakenOnce() throws Exception {
    try (KeyWatch watch = watches.open("a")) {
      assertThat(watch.awaitRelease(Duration.ZERO)).as("nothing yet").isFalse();
      watches.wake("a");
      assertThat(watch.awaitRelease(Duration.ZERO)).as("the kept wake-up").isTrue();
      assertThat(watch.awaitRelease(Duration.ZERO)).as("taken by the await before").isFalse();
    }
  }

  @Test
  void aWakeUpOfAnotherKeyLeavesTheWatchAloneButWakeAllWakesIt() throws Exception {
    try (KeyWatch a = watches.open("a");
        KeyWatch b = watches.open("b")) {
      watches.wake("b");
      assertThat(a.awaitRelease(Duration.ofMillis(1))).isFalse();
      assertThat(b.awaitRelease(Duration.ZERO)).isTrue();
      watches.wakeAll();
      assertThat(a.awaitRelease(Duration.ZERO)).isTrue();
      assertThat(b.awaitRelease(Duration.ZERO)).isTrue();
    }
  }

  @Test
  void aWakeUpEndsAWaitInProgress() throws Exception {
    try (KeyWatch watch = watches.open("a")) {
      CompletableFuture<Boolean> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return watch.awaitRelease(Duration.ofMinutes(5));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      watches.wake("a"); // before or during the wait: either way it returns true
      assertThat(waiting.get(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void closedWatchesAreForgotten() {
    KeyWatch a = watches.open("a");
    KeyWatch alsoA = watches.open("a");
    a.close();
    assertThat(watches.isEmpty()).isFalse();
    alsoA.close();
    assertThat(watches.isEmpty()).isTrue();
  }
}
