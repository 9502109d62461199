/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Openers racing on a new file: whoever creates the schema, every other opener must recognize it as
 * a lease database, never take a half-read header for another application's database (as two {@code
 * lease run} started at once on a fresh machine would).
 */
class SqliteConcurrentCreationTest {

  private static final int ROUNDS = 40;
  private static final int OPENERS = 4;

  @TempDir Path directory;

  @Test
  void openersRacingOnANewFileAllSeeALeaseDatabase() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(OPENERS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        Path file = directory.resolve("round-" + round + ".db");
        CyclicBarrier start = new CyclicBarrier(OPENERS);
        List<Future<String>> opened = new ArrayList<>();
        for (int i = 0; i < OPENERS; i++) {
          opened.add(
              pool.submit(
                  () -> {
                    start.await(10, TimeUnit.SECONDS);
                    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(file)) {
                      return "ok";
                    } catch (RuntimeException e) {
                      return e.getMessage();
                    }
                  }));
        }
        for (Future<String> result : opened) {
          assertThat(result.get(30, TimeUnit.SECONDS)).as("round %d", round).isEqualTo("ok");
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
