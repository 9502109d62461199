/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ShutdownHookTest {

  @Test
  void noCommandIsStartedOnceTheShutdownHasBegun() {
    try (ShutdownHook hook =
        ShutdownHook.install(new ChildTerminator(Duration.ofSeconds(1), () -> false))) {
      assertThat(hook.beginShutdown()).isNull();
      AtomicBoolean started = new AtomicBoolean();

      Optional<Process> child =
          hook.startUnlessShuttingDown(
              () -> {
                started.set(true);
                throw new AssertionError("started after the shutdown began");
              });

      assertThat(child).isEmpty();
      assertThat(started).isFalse();
    }
  }

  @Test
  void aCommandStartedBeforeTheShutdownIsTheOneTheHookStops() throws IOException {
    try (ShutdownHook hook =
        ShutdownHook.install(new ChildTerminator(Duration.ofSeconds(1), () -> false))) {
      Process sleeper = new ProcessBuilder("sleep", "30").start();
      try {
        Optional<Process> child = hook.startUnlessShuttingDown(() -> sleeper);

        assertThat(child).containsSame(sleeper);
        assertThat(hook.beginShutdown()).isSameAs(sleeper);
      } finally {
        sleeper.destroyForcibly();
      }
    }
  }
}
