/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tool on a shared database, as real processes: one runner per key, the commands that inspect
 * and manage leases, a table that migrations own, and credentials that are never printed. Run on
 * each server by a subclass, on a table of its own.
 */
abstract class JdbcProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The server this test runs on. */
  abstract SharedServer database();

  final String table = SharedServer.freshTableName("lease_cli_");
  private boolean reachable;

  @BeforeEach
  void requireTheServer() {
    database().requireReachable();
    reachable = true;
  }

  @AfterEach
  void dropTheTable() throws Exception {
    if (reachable) {
      database().dropLeaseTable(table);
    }
  }

  /** {@code lease COMMAND --jdbc URL --jdbc-table TABLE REST...}. */
  String[] lease(String command, String... rest) {
    List<String> args =
        new ArrayList<>(List.of(command, "--jdbc", database().url(), "--jdbc-table", table));
    args.addAll(List.of(rest));
    return args.toArray(String[]::new);
  }

  /** A secret no output has by chance. */
  static String secret() {
    return "S3cr3t-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
  }

  @Test
  void exactlyOneOfTwoRunsOnOneKeyRunsItsCommandAndTheOtherExitsWithTheHeldCode() {
    // A fresh table: both processes also create it at the same moment, as on a first use.
    String[] args =
        lease(
            "run",
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

  @Test
  void aStoreUriOfTheDatabaseIsTheTableThatJdbcNames() throws Exception {
    LeaseTool run =
        LeaseTool.run(
            "run",
            "--store",
            database().url(),
            "--jdbc-table",
            table,
            "by-uri",
            "--",
            "sh",
            "-c",
            "echo token=$LEASE_TOKEN");
    assertThat(run.awaitExit()).as("%s", run).isZero();
    long token = Long.parseLong(run.awaitStdout("token=(\\d+)"));

    LeaseTool status = LeaseTool.run(lease("status", "by-uri", "--json"));
    assertThat(status.awaitExit()).as("%s", status).isZero();
    assertThat(JSON.readTree(status.stdout()).get("generation").asLong()).isEqualTo(token);
  }

  private static boolean started(LeaseTool tool) {
    return tool.stdoutLines().stream().anyMatch(line -> line.startsWith("started"));
  }

  @Test
  void statusListReleaseAndPruneWorkOnTheDatabase() throws Exception {
    long token;
    try (LeaseTool holder =
        LeaseTool.start(
            lease(
                "run",
                "--ttl",
                "4s",
                "--heartbeat",
                "1s",
                "stuck",
                "--",
                "sh",
                "-c",
                "trap 'echo child got TERM; exit 143' TERM; echo running token=$LEASE_TOKEN;"
                    + " while :; do sleep 0.1; done"))) {
      token = Long.parseLong(holder.awaitStdout("running token=(\\d+)"));

      JsonNode held = JSON.readTree(succeeded(lease("status", "stuck", "--json")).stdout());
      assertThat(held.get("state").asText()).isEqualTo("held");
      assertThat(held.get("generation").asLong()).isEqualTo(token);
      assertThat(held.get("holder").get("pid").asLong()).isEqualTo(holder.pid());
      assertThat(held.get("process").asText()).isEqualTo("alive");
      JsonNode all = JSON.readTree(succeeded(lease("list", "--json")).stdout());
      assertThat(all).hasSize(1);
      assertThat(all.get(0).get("key").asText()).isEqualTo("stuck");
      assertThat(all.get(0).get("generation").asLong()).isEqualTo(token);
      assertThat(succeeded(lease("list")).stdoutLines())
          .hasSize(2)
          .last()
          .asString()
          .startsWith("stuck")
          .contains("held", Long.toString(token));

      LeaseTool wrong = LeaseTool.run(lease("release", "stuck", "--generation", "1"));
      assertThat(wrong.awaitExit()).as("%s", wrong).isEqualTo(ExitCodes.REFUSED);
      LeaseTool right = succeeded(lease("release", "stuck", "--generation", Long.toString(token)));
      assertThat(right.stdout()).startsWith("released lease 'stuck' generation " + token + " ");
      assertThat(holder.awaitExit()).as("%s", holder).isEqualTo(ExitCodes.LOST);
      assertThat(holder.stdout()).contains("child got TERM");
    }
    JsonNode released = JSON.readTree(succeeded(lease("status", "stuck", "--json")).stdout());
    assertThat(released.get("state").asText()).isEqualTo("released");
    assertThat(released.get("generation").asLong()).isEqualTo(token);
    String[] printToken = lease("run", "stuck", "--", "sh", "-c", "echo token=$LEASE_TOKEN");
    long afterRelease = Long.parseLong(succeeded(printToken).awaitStdout("token=(\\d+)"));
    assertThat(afterRelease).isGreaterThan(token);

    assertThat(succeeded(lease("prune", "--older-than", "1h")).stdout())
        .isEqualTo("pruned 0 tombstones older than 1h");
    assertThat(succeeded(lease("prune", "--older-than", "0s")).stdout())
        .isEqualTo("pruned 1 tombstone older than 0s");
    assertThat(JSON.readTree(succeeded(lease("list", "--json")).stdout())).isEmpty();
    assertThat(
            JSON.readTree(succeeded(lease("status", "stuck", "--json")).stdout())
                .get("state")
                .asText())
        .isEqualTo("absent");
    assertThat(Long.parseLong(succeeded(printToken).awaitStdout("token=(\\d+)")))
        .as("above the pruned tombstone's")
        .isGreaterThan(afterRelease);
  }

  @Test
  void theTableIsCreatedOnFirstUseUnlessMigrationsOwnTheSchema() throws Exception {
    LeaseTool status = LeaseTool.run(lease("status", "job"));
    assertThat(status.awaitExit()).as("%s", status).isEqualTo(ExitCodes.REPOSITORY);
    assertThat(status.stderr())
        .isEqualTo(
            "lease status: repository failure: no lease table '"
                + table
                + "' in the "
                + database().product()
                + " database at "
                + database().url()
                + "; this command only reads an existing table (run, release and prune create it);"
                + " check --jdbc-table and the URL's database");

    LeaseTool owned = LeaseTool.run(lease("run", "--no-create-table", "job", "--", "echo", "ran"));
    assertThat(owned.awaitExit()).as("%s", owned).isEqualTo(ExitCodes.REPOSITORY);
    assertThat(owned.stdout()).as("the command did not run").isEmpty();
    assertThat(owned.stderr())
        .startsWith("lease run: repository failure: no lease table '" + table + "' in the ")
        .contains("with --no-create-table the schema is the migrations' to create");
    assertThat(database().hasTable(table)).as("nothing created").isFalse();

    assertThat(succeeded(lease("run", "job", "--", "echo", "ran")).stdout()).isEqualTo("ran");
    assertThat(database().hasTable(table)).isTrue();
    assertThat(succeeded(lease("run", "--no-create-table", "job", "--", "echo", "again")).stdout())
        .isEqualTo("again");
  }

  @Test
  void aTableOfThatNameThatIsNotALeaseTableIsRefusedAndLeftAlone() throws Exception {
    // A table of this name that is not a lease table, as another application would make.
    database().execute("CREATE TABLE " + table + " (id INTEGER PRIMARY KEY, note VARCHAR(20))");
    database().execute("INSERT INTO " + table + " VALUES (1, 'theirs')");

    LeaseTool run = LeaseTool.run(lease("run", "job", "--", "echo", "ran"));

    assertThat(run.awaitExit()).as("%s", run).isEqualTo(ExitCodes.REPOSITORY);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr())
        .startsWith("lease run: repository failure: the table '" + table + "' is not a lease table")
        .endsWith("(" + database().product() + " database at " + database().url() + ")");
    assertThat(database().hasTable(table)).isTrue();
  }

  @Test
  void aPasswordGivenInAnyFormIsNeverPrinted() {
    String secret = secret();
    String url = database().url();
    String userPart = url.replaceFirst("//", "//root:" + secret + "@");
    String parameter = url + (url.contains("?") ? "&" : "?") + "sslpassword=" + secret;
    // Each names the password in its own way, and each run fails: a missing table (--no-create-
    // table), or a password the server refuses; the failure is printed, the password is not.
    List<LeaseTool> runs =
        List.of(
            LeaseTool.run(
                "status", "--jdbc", userPart, "--jdbc-table", table, "--no-create-table", "k"),
            LeaseTool.run(
                Map.of("LEASE_DEBUG", "1"),
                "run",
                "--jdbc=" + userPart,
                "--jdbc-table",
                table,
                "--no-create-table",
                "k",
                "--",
                "true"),
            LeaseTool.run(Map.of("LEASE_DEBUG", "1"), "list", "--jdbc", parameter, "--db", "x.db"),
            LeaseTool.run(
                Map.of("LEASE_JDBC_URL", userPart, "LEASE_DEBUG", "1"),
                "status",
                "--jdbc-table",
                table,
                "k"),
            LeaseTool.run(
                Map.of("LEASE_JDBC_PASSWORD", secret),
                "list",
                "--jdbc",
                url,
                "--jdbc-table",
                table),
            LeaseTool.run("list", "--jdbc", userPart.replace("jdbc:", "jdbc:unknown:")));
    for (LeaseTool run : runs) {
      assertThat(run.awaitExit()).as("%s", run).isNotZero();
      assertThat(run.stderr()).as("%s", run).isNotEmpty();
      assertThat(run.stdout() + run.stderr()).as("%s", run).doesNotContain(secret);
    }
    assertThat(runs.get(0).stderr()).contains("//root:***@");
    assertThat(runs.get(2).stderr()).contains("mutually exclusive");
  }

  /**
   * A holder cut off from the database (the network to it frozen, nothing closed) while its command
   * runs under the key lock: its session, and the advisory lock with it, would live on at the
   * server until TCP gave up on it, hours later. The server now ends it once the holder has been
   * silent for its TTL, grace and a margin. A successor whose wait is shorter than that exits with
   * the held code (75), not with a pool's "Connection is not available" (74), while it renews its
   * own lease; one with a longer wait runs its command within that bound, the cut still on.
   */
  @Test
  @Tag("faults") // a cut network, waited out: 15 s on each server
  void aHolderCutOffFromTheDatabaseBlocksTheKeyOnlyUntilTheServerEndsItsSilentSession()
      throws Exception {
    URI address = URI.create(database().url().substring("jdbc:".length()));
    double boundSeconds = 2 + 12 + 1; // the holder's TTL, grace, and the repository's margin
    try (TcpProxy proxy = TcpProxy.to(address.getHost(), address.getPort())) {
      String proxied =
          database().url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
      String[] holderArgs = {
        "run",
        "--jdbc",
        proxied,
        "--jdbc-table",
        table,
        "--ttl",
        "2s",
        "--heartbeat",
        "500ms",
        "--grace",
        "12s",
        "cut",
        "--",
        "sh",
        "-c",
        "echo running; exec sleep 600"
      };
      try (LeaseTool holder = LeaseTool.start(holderArgs)) {
        holder.awaitStdout("running");
        proxy.freeze();
        long cutAt = System.nanoTime();

        LeaseTool shortWait =
            LeaseTool.run(
                lease(
                    "run",
                    "--ttl",
                    "2s",
                    "--heartbeat",
                    "500ms",
                    "--wait",
                    "3s",
                    "cut",
                    "--",
                    "echo",
                    "short"));
        assertThat(shortWait.awaitExit()).as("%s", shortWait).isEqualTo(ExitCodes.HELD);
        assertThat(shortWait.stdout()).as("%s", shortWait).isEmpty();
        assertThat(shortWait.stderr())
            .as("%s", shortWait)
            .contains("the fenced work of the previous holder still runs")
            .doesNotContain("Connection is not available");
        assertThat((System.nanoTime() - cutAt) / 1e9)
            .as("the short wait ended before the server's bound, or it proves nothing")
            .isLessThan(boundSeconds);

        LeaseTool longWait =
            LeaseTool.run(
                lease("run", "--ttl", "2s", "--wait", "60s", "cut", "--", "echo", "long"));
        double ranAfter = (System.nanoTime() - cutAt) / 1e9;
        assertThat(longWait.awaitExit()).as("%s", longWait).isZero();
        assertThat(longWait.stdout()).isEqualTo("long");
        System.out.printf(
            "%s: a successor of a cut-off lease run ended %.1f s after the cut (bound %.0f s)%n",
            database().product(), ranAfter, boundSeconds);
        // The bound counts from the holder's last word, at or before the cut; the rest is the
        // server's timer, the successor's start and its polling, given room on a loaded machine.
        assertThat(ranAfter).as("seconds from the cut").isLessThan(boundSeconds + 8);
        proxy.thaw();
        assertThat(holder.awaitExit()).as("%s", holder).isEqualTo(ExitCodes.LOST);
      }
    }
  }

  /** Runs {@code lease ARGS...} and checks that it succeeded. */
  static LeaseTool succeeded(String... args) {
    LeaseTool run = LeaseTool.run(args);
    assertThat(run.awaitExit()).as("%s", run).isZero();
    return run;
  }
}
