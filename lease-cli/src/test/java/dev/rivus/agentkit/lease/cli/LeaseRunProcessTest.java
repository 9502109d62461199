/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lease run} as a real process: one runner per key, takeover of dead and stopped holders.
 */
@Tag("cross-process")
class LeaseRunProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path leases;

  /** The repository option of each test: the SQLite default unless a test says otherwise. */
  private List<String> repository;

  @BeforeEach
  void useTheDefaultKindOfRepository() throws IOException {
    // A named store's directory must exist: only the default one is created.
    Files.createDirectories(leases.resolve("state"));
    repository = List.of("--db", leases.resolve("state/leases.db").toString());
  }

  private String[] run(String key, String... commandAndOptions) {
    List<String> args = new ArrayList<>(List.of("run"));
    args.addAll(repository);
    args.addAll(List.of(commandAndOptions));
    int delimiter = args.indexOf("--");
    args.add(delimiter, key);
    return args.toArray(String[]::new);
  }

  /** What a cron job needs from a run skipped because the lease is held: as flock -n -E. */
  @Test
  void aRunSkippedBecauseTheLeaseIsHeldCanBeQuietAndChooseItsExitCode() {
    try (LeaseTool holder =
        LeaseTool.start(run("report", "--", "sh", "-c", "echo running; read line"))) {
      holder.awaitStdout("running");

      LeaseTool quiet = LeaseTool.run(run("report", "-q", "-E", "0", "--", "echo", "ran"));
      assertThat(quiet.awaitExit()).as("%s", quiet).isZero();
      assertThat(quiet.stdout()).as("the command did not run").isEmpty();
      assertThat(quiet.stderr()).isEmpty();

      LeaseTool told = LeaseTool.run(run("report", "--conflict-exit-code", "3", "--", "true"));
      assertThat(told.awaitExit()).as("%s", told).isEqualTo(3);
      assertThat(told.stderr()).startsWith("lease run: lease 'report' is held by");

      LeaseTool plain = LeaseTool.run(run("report", "--", "true"));
      assertThat(plain.awaitExit()).as("%s", plain).isEqualTo(ExitCodes.HELD);

      LeaseTool bad = LeaseTool.run(run("report", "-E", "256", "--", "true"));
      assertThat(bad.awaitExit()).as("%s", bad).isEqualTo(ExitCodes.USAGE);
      assertThat(bad.stderr()).contains("--conflict-exit-code must be from 0 to 255");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--db", "--dir"})
  void exactlyOneOfTwoConcurrentRunsRunsItsCommandAndTheOtherExitsWithTheHeldCode(String kind) {
    repository = List.of(kind, leases.resolve("store").toString());
    String[] args =
        run(
            "nightly",
            "--",
            "sh",
            "-c",
            "echo \"started key=$LEASE_KEY token=$LEASE_TOKEN\"; read line; exit 3");
    long before = Tokens.microsNow();
    try (LeaseTool first = LeaseTool.start(args);
        LeaseTool second = LeaseTool.start(args)) {
      await("one runner to start its command or both to end")
          .atMost(LeaseTool.PATIENCE)
          .until(() -> started(first) || started(second) || !first.isAlive() && !second.isAlive());
      LeaseTool winner = started(first) ? first : second;
      LeaseTool loser = winner == first ? second : first;
      long token =
          Tokens.assertFirst(winner.awaitStdout("started key=nightly token=(\\d+)$"), before);

      assertThat(loser.awaitExit()).as("%s", loser).isEqualTo(ExitCodes.HELD);
      assertThat(loser.stdout()).doesNotContain("started");
      assertThat(loser.stderrLines())
          .singleElement()
          .asString()
          .contains("'nightly' is held by", "pid " + winner.pid(), "generation " + token + ",");

      winner.writeLine("done");
      assertThat(winner.awaitExit()).as("the command's own exit code").isEqualTo(3);
    }
  }

  private String[] inspect(String command, String key) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(repository);
    args.addAll(List.of(key, "--json"));
    return args.toArray(String[]::new);
  }

  @Test
  void sigtermToLeaseStopsItsCommandReleasesTheLeaseAndExitsWithTheSignalCode() throws Exception {
    long token;
    try (LeaseTool holder =
        LeaseTool.start(
            run(
                "service",
                "--",
                "sh",
                "-c",
                "trap 'echo child got TERM; exit 143' TERM; echo token=$LEASE_TOKEN; echo child=$$;"
                    + " while :; do sleep 0.1; done"))) {
      long child = Long.parseLong(holder.awaitStdout("child=(\\d+)"));
      token = Long.parseLong(holder.awaitStdout("token=(\\d+)"));

      holder.signal("TERM");

      assertThat(holder.awaitExit()).as("%s", holder).isEqualTo(128 + 15);
      assertThat(holder.stdout()).contains("child got TERM");
      assertThat(LeaseTool.isRunning(child)).isFalse();
    }
    JsonNode status = JSON.readTree(LeaseTool.run(inspect("status", "service")).stdout());
    assertThat(status.get("state").asText()).isEqualTo("released");
    assertThat(status.get("generation").asLong()).as("the tombstone keeps it").isEqualTo(token);
  }

  @Test
  void aCommandThatIsNotFoundExits127AndTheLeaseIsReleased() throws Exception {
    LeaseTool lease = LeaseTool.run(run("missing", "--", "no-such-command-for-lease-tests"));

    assertThat(lease.awaitExit()).as("%s", lease).isEqualTo(ExitCodes.NOT_FOUND);
    assertThat(lease.stderr())
        .startsWith("lease run: ")
        .contains("no-such-command-for-lease-tests")
        .doesNotContain("lease-guard");
    JsonNode status = JSON.readTree(LeaseTool.run(inspect("status", "missing")).stdout());
    assertThat(status.get("state").asText()).isEqualTo("released");
  }

  private static boolean started(LeaseTool tool) {
    return tool.stdoutLines().stream().anyMatch(line -> line.startsWith("started"));
  }

  @Test
  void killingLeaseWithSigkillTakesItsCommandAlongAndANewRunTakesOverAtOnce() throws Exception {
    long child;
    long token;
    try (LeaseTool holder =
        LeaseTool.start(
            run(
                "deploy",
                "--ttl",
                "60s",
                "--",
                "sh",
                "-c",
                "echo token=$LEASE_TOKEN; echo child=$$; exec sleep 600"))) {
      child = Long.parseLong(holder.awaitStdout("child=(\\d+)"));
      token = Long.parseLong(holder.awaitStdout("token=(\\d+)"));
      assertThat(LeaseTool.isRunning(child)).isTrue();

      holder.signal("KILL");

      assertThat(holder.awaitExit()).isEqualTo(128 + 9);
      LeaseTool.awaitGone(child, Duration.ofSeconds(10));

      JsonNode status = JSON.readTree(LeaseTool.run(inspect("status", "deploy")).stdout());
      assertThat(status.get("state").asText()).isEqualTo("held");
      assertThat(status.get("holder").get("pid").asLong()).isEqualTo(holder.pid());
      assertThat(status.get("process").asText()).as("judged from here").isEqualTo("dead");
    }

    // Without --wait and with a 60 s TTL: only an immediate takeover of the dead holder succeeds.
    LeaseTool next =
        LeaseTool.run(run("deploy", "--ttl", "60s", "--", "sh", "-c", "echo token=$LEASE_TOKEN"));
    assertThat(next.awaitExit()).as("%s", next).isZero();
    assertThat(Long.parseLong(next.awaitStdout("token=(\\d+)"))).isGreaterThan(token);
  }

  /**
   * A stopped holder is taken over after the TTL, but the successor runs its command only once the
   * stopped holder has resumed and stopped its own: the stopped {@code lease} keeps the key lock.
   */
  @Test
  void aStoppedHolderIsTakenOverAfterTheTtlAndTheSuccessorsCommandStartsOnlyOnceItsHasEnded() {
    String[] timing = {"--ttl", "3s", "--heartbeat", "500ms"};
    try (LeaseTool stopped =
        LeaseTool.start(
            run(
                "ingest",
                timing[0],
                timing[1],
                timing[2],
                timing[3],
                "--grace",
                "20s",
                "--",
                "sh",
                "-c",
                "trap 'echo child got TERM; exit 143' TERM; echo token=$LEASE_TOKEN;"
                    + " echo child=$$; while :; do sleep 0.1; done"))) {
      long child = Long.parseLong(stopped.awaitStdout("child=(\\d+)"));
      long token = Long.parseLong(stopped.awaitStdout("token=(\\d+)"));
      stopped.signal("STOP");

      long start = System.nanoTime();
      try (LeaseTool successor =
          LeaseTool.start(
              run(
                  "ingest",
                  timing[0],
                  timing[1],
                  timing[2],
                  timing[3],
                  "--wait",
                  "60s",
                  "--",
                  "sh",
                  "-c",
                  "echo token=$LEASE_TOKEN; if kill -0 "
                      + child
                      + " 2>/dev/null; then echo beside; else echo alone; fi"))) {
        successor.closeStdin();
        assertThat(successor.awaitStderr("(is held by .*)"))
            .contains(
                "pid " + stopped.pid(), "generation " + token + ",", "alive", "waiting up to 1m");
        successor.awaitStderr("(waiting up to 1m for the key lock)");
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertThat(waited).as("taken over only after the TTL").isGreaterThan(Duration.ofSeconds(3));
        assertThat(LeaseTool.isRunning(child))
            .as("the stopped holder's command still runs")
            .isTrue();
        assertThat(successor.stdout()).as("the successor's command has not started").isEmpty();

        stopped.signal("CONT");

        assertThat(stopped.awaitExit()).as("%s", stopped).isEqualTo(ExitCodes.LOST);
        assertThat(stopped.stdout()).contains("child got TERM");
        assertThat(stopped.stderr()).contains("'ingest' generation " + token + " was lost");
        assertThat(successor.awaitExit()).as("%s", successor).isZero();
        assertThat(successor.stdout()).matches("token=\\d+\nalone");
        assertThat(Long.parseLong(successor.awaitStdout("token=(\\d+)"))).isGreaterThan(token);
      }
    }
  }

  /**
   * The key lock is the one a program's fenced work takes ({@code Lease.runFenced}): while it is
   * held, {@code lease run} does not start its command; it waits up to {@code --wait}, at least 5
   * s, then gives up without running it.
   */
  @Test
  void theCommandRunsUnderTheKeyLockThatFencedWorkTakes() throws Exception {
    Path database = leases.resolve("state/leases.db");
    try (LeaseTool create = LeaseTool.run(run("batch", "--", "true"))) {
      assertThat(create.awaitExit()).as("%s", create).isZero();
    }
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(database)) {
      LeaseRepository.KeyLock keyLock = repository.lockKey("batch");
      try (LeaseTool refused = LeaseTool.run(run("batch", "--", "echo", "ran"))) {
        assertThat(refused.awaitExit()).as("%s", refused).isEqualTo(ExitCodes.HELD);
        assertThat(refused.stdout()).as("the command did not run").isEmpty();
        assertThat(refused.stderr())
            .contains(
                "lease run: waiting up to 5s for the key lock",
                "still holds the key lock after 5s",
                "not running the command");
      }

      try (LeaseTool waiting =
          LeaseTool.start(run("batch", "--wait", "60s", "--", "echo", "ran"))) {
        waiting.closeStdin();
        waiting.awaitStderr("(waiting up to 1m for the key lock)");
        assertThat(waiting.stdout()).as("the command has not started").isEmpty();

        keyLock.close();

        assertThat(waiting.awaitExit()).as("%s", waiting).isZero();
        assertThat(waiting.stdout()).isEqualTo("ran");
      } finally {
        keyLock.close();
      }
    }
  }
}
