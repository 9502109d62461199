/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.testkit.PrivateServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The database phases end to end, briefly: PostgreSQL and MariaDB attacked for 12 s each with kill
 * -9, SIGSTOP, clock jumps, their sessions ended and their network cut, fenced transactions on a
 * side table among the fenced work, and a {@code lease run} worker on the same table; and
 * PostgreSQL and MariaDB on private servers, restarted at the start of every round of faults. A
 * server that does not answer (for a private one: its binaries missing) skips the test (fails it
 * with {@code CI=true}), as lease-jdbc's tests do.
 */
@Tag("cross-process")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SafetyDatabaseTest {

  private static final Duration PHASE = Duration.ofSeconds(12);

  /**
   * The restarted server is down 0.3-4.5 s in every round of faults, so its phase needs longer to
   * reach the same per-second minimum of writes (in one CI run 12 s gave 23 writes of 24).
   */
  private static final Duration RESTART_PHASE = Duration.ofSeconds(20);

  @TempDir Path out;

  @ParameterizedTest
  @EnumSource(
      value = StoreKind.class,
      names = {"POSTGRES", "MARIADB", "POSTGRES_RESTART", "MARIADB_RESTART"})
  void findsNoViolationOnTheDatabase(StoreKind store) throws Exception {
    Database database = Objects.requireNonNull(Database.of(store));
    boolean restarts = store.onPrivateServer();
    String unreachable =
        restarts ? PrivateServer.unavailable(database.privateKind()) : database.unreachable();
    if (unreachable != null) {
      String message =
          (restarts
                  ? "a private " + database.product() + " server"
                  : database.product() + " at " + database.url())
              + " unavailable: "
              + unreachable;
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail(message + " (CI=true: the server is required)");
      }
      Assumptions.assumeTrue(false, message);
    }
    long seed = System.nanoTime() % 1_000_000;
    List<Phase> phases =
        List.of(
            new Phase(
                store.label(), store, true, restarts ? RESTART_PHASE : PHASE, 4, seed, false));
    ByteArrayOutputStream report = new ByteArrayOutputStream();

    boolean passed;
    try (PrintStream print = new PrintStream(report, true, StandardCharsets.UTF_8)) {
      passed = SafetyMain.run(phases, out, print);
    }

    String text = report.toString(StandardCharsets.UTF_8);
    System.out.print(text); // kept in the test's output file, for the figures
    assertThat(passed).as(text).isTrue();
    assertThat(text).contains("ALL PHASES PASSED", "fenced transactions: {committed=");
    if (restarts) {
      assertThat(text).contains("db_restart=");
    }
    assertThat(out.resolve(store.label()).resolve("worker-r5.jsonl"))
        .as("a lease run that acquired, on the database through its own proxy")
        .content()
        .contains("\"ev\":\"acquire_ok\"");
  }
}
