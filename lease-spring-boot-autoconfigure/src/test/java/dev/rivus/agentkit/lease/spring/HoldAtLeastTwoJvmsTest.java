/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs whose schedules are 0.6 s apart (as clocks that far apart would put them) run a job
 * every 2 s for 20 s on one SQLite store: with {@code holdAtLeast} of 1.5 s it runs 10 times in
 * all, not 20; the same job without it runs in both, 20 times.
 */
@Tag("cross-process")
class HoldAtLeastTwoJvmsTest {

  private static final long WINDOW_MILLIS = 20_000;

  @TempDir Path directory;

  @Test
  void twoJvmsSixHundredMillisecondsApartRunEachSlotOnce() throws Exception {
    String store = directory.resolve("leases.db").toString();
    // Far enough ahead for both JVMs to be up, on a loaded machine too.
    long first = System.currentTimeMillis() + 15_000;
    List<ChildJvm> children = new ArrayList<>();
    try {
      children.add(start(store, "a", first));
      children.add(start(store, "b", first + 600));
      for (ChildJvm child : children) {
        child.awaitLine("scheduled", line -> line.startsWith("scheduled"), Duration.ofSeconds(60));
      }
      // Once each JVM has printed a run at or after the window's end, every run that started in
      // the window [first, first + 20 s) has printed.
      long end = first + WINDOW_MILLIS;
      await()
          .atMost(Duration.ofSeconds(90))
          .until(
              () ->
                  children.stream()
                      .allMatch(
                          child ->
                              child.stdoutLines().stream()
                                  .filter(line -> line.startsWith("run bare "))
                                  .anyMatch(line -> startedAt(line) >= end)));
      List<String> runs = new ArrayList<>();
      for (ChildJvm child : children) {
        child.stdoutLines().stream()
            .filter(line -> line.startsWith("run "))
            .filter(line -> startedAt(line) < end)
            .forEach(runs::add);
      }
      assertThat(runs.stream().filter(run -> run.startsWith("run held ")).count())
          .as("runs of the job held at least 1.5 s: %s", runs)
          .isEqualTo(10);
      assertThat(runs.stream().filter(run -> run.startsWith("run bare ")).count())
          .as("runs of the job released at once: %s", runs)
          .isEqualTo(20);
    } finally {
      children.forEach(ChildJvm::close);
    }
  }

  private static long startedAt(String run) {
    return Long.parseLong(run.substring(run.lastIndexOf(' ') + 1));
  }

  private static ChildJvm start(String store, String instance, long first) {
    return ChildJvm.builder(ScheduledInstanceMain.class.getName())
        .jvmOptions("-Xmx128m")
        .args(List.of(store, instance, Long.toString(first)))
        .start();
  }
}
