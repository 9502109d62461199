/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lease status} and {@code lease list} as real processes: their table and JSON show exactly
 * what the repository holds, and the holder's liveness as judged from this machine.
 */
class InspectProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  private List<String> repository;

  private String[] args(String... args) {
    List<String> all = new ArrayList<>(List.of(args[0]));
    all.addAll(repository);
    all.addAll(List.of(args).subList(1, args.length));
    return all.toArray(String[]::new);
  }

  private LeaseRepository open(String kind) {
    Path store = temp.resolve("store");
    return kind.equals("--db")
        ? SqliteLeaseRepository.open(store)
        : FileLeaseRepository.open(store);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--db", "--dir"})
  void statusAndListShowWhatTheRepositoryHoldsInTableAndJson(String kind) throws Exception {
    repository = List.of(kind, temp.resolve("store").toString());
    long before = Tokens.microsNow();
    long[] tokens = new long[2];
    for (int i = 0; i < 2; i++) { // two runs: the first generation, then one more, released
      LeaseTool run = LeaseTool.run(args("run", "batch", "--", "sh", "-c", "echo $LEASE_TOKEN"));
      assertThat(run.awaitExit()).isZero();
      tokens[i] = Long.parseLong(run.awaitStdout("^(\\d+)$"));
    }
    Tokens.assertFirst(tokens[0], before);
    assertThat(tokens[1]).isGreaterThan(tokens[0]);
    // Renewals every 5 minutes: the record stays at one revision while the test reads it.
    try (LeaseTool holder =
        LeaseTool.start(
            args("run", "--ttl", "20m", "api", "--", "sh", "-c", "echo running; read line"))) {
      holder.awaitStdout("running");
      List<LeaseSnapshot> stored;
      try (LeaseRepository leases = open(kind)) {
        stored = new ArrayList<>(leases.loadAll());
      }
      stored.sort(Comparator.comparing(LeaseSnapshot::key));
      LeaseSnapshot api = stored.get(0);
      LeaseSnapshot batch = stored.get(1);
      assertThat(api.key()).isEqualTo("api");
      assertThat(api.holder().process().pid()).isEqualTo(holder.pid());
      assertThat(batch.generation()).isEqualTo(tokens[1]);
      assertThat(api.ttl()).as("the TTL its holder promised").isEqualTo(Duration.ofMinutes(20));
      assertThat(batch.ttl()).as("the default TTL").isEqualTo(Duration.ofSeconds(60));

      JsonNode status = JSON.readTree(LeaseTool.run(args("status", "api", "--json")).stdout());
      assertMatches(status, api, "alive");

      JsonNode list = JSON.readTree(LeaseTool.run(args("list", "--json")).stdout());
      assertThat(list).hasSize(2);
      assertMatches(list.get(0), api, "alive");
      assertMatches(list.get(1), batch, null);

      List<String> table = LeaseTool.run(args("list")).stdoutLines();
      assertThat(table).hasSize(3);
      assertThat(table.get(0).split("\\s+")).containsExactlyElementsOf(TableRenderer.HEADER);
      assertThat(table.get(1).split("\\s+")).containsExactlyElementsOf(row(api, "alive", "20m"));
      assertThat(table.get(2).split("\\s+")).containsExactlyElementsOf(row(batch, "-", "1m"));
      assertColumnsLineUp(table);
      List<String> statusTable = LeaseTool.run(args("status", "api")).stdoutLines();
      assertThat(statusTable).hasSize(2);
      assertThat(statusTable.get(0).split("\\s+")).containsExactlyElementsOf(TableRenderer.HEADER);
      assertThat(statusTable.get(1).split("\\s+"))
          .containsExactlyElementsOf(row(api, "alive", "20m"));
      assertColumnsLineUp(statusTable);

      holder.writeLine("done");
      assertThat(holder.awaitExit()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--db", "--dir"})
  void statusOfAKeyNeverAcquiredSaysAbsent(String kind) throws Exception {
    repository = List.of(kind, temp.resolve("store").toString());
    open(kind).close(); // the store exists; status never creates one

    LeaseTool json = LeaseTool.run(args("status", "nothing-here", "--json"));
    LeaseTool table = LeaseTool.run(args("status", "nothing-here"));

    assertThat(json.awaitExit()).isZero();
    assertThat(JSON.readTree(json.stdout()))
        .isEqualTo(JSON.readTree("{\"key\":\"nothing-here\",\"state\":\"absent\"}"));
    assertThat(table.stdout())
        .isEqualTo("lease 'nothing-here' is absent: never acquired, or pruned");
  }

  private static void assertMatches(JsonNode node, LeaseSnapshot snapshot, String process) {
    assertThat(node.get("key").asText()).isEqualTo(snapshot.key());
    assertThat(node.get("state").asText()).isEqualTo(snapshot.isHeld() ? "held" : "released");
    assertThat(node.get("generation").asLong()).isEqualTo(snapshot.generation());
    assertThat(node.get("revision").asLong()).isEqualTo(snapshot.revision());
    JsonNode holder = node.get("holder");
    assertThat(holder.get("host").asText()).isEqualTo(snapshot.holder().process().host());
    assertThat(holder.get("pid").asLong()).isEqualTo(snapshot.holder().process().pid());
    assertThat(holder.get("bootId").asText()).isEqualTo(snapshot.holder().process().bootId());
    assertThat(holder.get("pidNamespace").asText())
        .isEqualTo(snapshot.holder().process().pidNamespace());
    assertThat(holder.get("processStart").asText())
        .isEqualTo(snapshot.holder().process().processStart());
    assertThat(holder.get("handle").asText()).isEqualTo(snapshot.holder().handleId());
    if (process == null) {
      assertThat(node.get("process").isNull()).isTrue();
    } else {
      assertThat(node.get("process").asText()).isEqualTo(process);
    }
    assertThat(node.get("ttlMillis").isIntegralNumber()).as("ttlMillis is a number").isTrue();
    assertThat(node.get("ttlMillis").asLong()).isEqualTo(snapshot.ttl().toMillis());
    assertThat(node.get("observedUnchangedMillis").asLong()).isZero();
    assertThat(node.get("updatedAt").asText()).isEqualTo(snapshot.updatedAt().toString());
  }

  private static List<String> row(LeaseSnapshot snapshot, String process, String ttl) {
    return List.of(
        snapshot.key(),
        snapshot.isHeld() ? "held" : "released",
        Long.toString(snapshot.generation()),
        Long.toString(snapshot.revision()),
        snapshot.holder().process().host(),
        Long.toString(snapshot.holder().process().pid()),
        process,
        ttl,
        "0s",
        snapshot.updatedAt().truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /**
   * A mistyped store path: the read-only commands fail with the repository code and say so, and
   * leave nothing behind (no database, no side file, no directory).
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "--db, status",
    "--db, list",
    "--dir, status",
    "--dir, list",
  })
  void readOnlyCommandsNeverCreateAStore(String kind, String command) throws Exception {
    Path missing = temp.resolve("mistyped").resolve("store");
    List<String> args = new ArrayList<>(List.of(command, kind, missing.toString()));
    if (command.equals("status")) {
      args.add("some-key");
    }

    LeaseTool tool = LeaseTool.run(args.toArray(String[]::new));

    assertThat(tool.awaitExit()).as("%s", tool).isEqualTo(ExitCodes.REPOSITORY);
    assertThat(tool.stderr())
        .startsWith("lease " + command + ": ")
        .contains("the directory of the store '" + missing + "' does not exist");
    assertThat(tool.stdout()).isEmpty();
    assertThat(temp.resolve("mistyped")).doesNotExist();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"--db", "--dir"})
  void readOnlyCommandsStillReadAStoreThatExistsButIsEmpty(String kind) throws Exception {
    Path store = temp.resolve("store");
    open(kind).close();

    LeaseTool tool = LeaseTool.run("list", kind, store.toString());

    assertThat(tool.awaitExit()).as("%s", tool).isZero();
  }

  @Test
  void theTableLinesUpForKeysInAnyScript() throws Exception {
    repository = List.of("--db", temp.resolve("store").toString());
    for (String key : List.of("日本語のジョブ", "cafe\u0301", "deploy-\uD83D\uDE80", "plain")) {
      assertThat(LeaseTool.run(args("run", key, "--", "true")).awaitExit()).isZero();
    }

    LeaseTool list = LeaseTool.run(args("list"));

    assertThat(list.awaitExit()).isZero();
    List<String> table = list.stdoutLines();
    assertThat(table).hasSize(5);
    // As a terminal shows them: a wide character takes two columns, a combining mark none.
    assertColumnsLineUp(table.stream().map(InspectProcessTest::asShown).toList());
  }

  private static String asShown(String line) {
    StringBuilder shown = new StringBuilder();
    line.codePoints()
        .forEach(point -> shown.append(point == ' ' ? " " : "x".repeat(DisplayWidth.of(point))));
    return shown.toString();
  }

  /** Every cell starts where its column's header starts, after at least two spaces. */
  static void assertColumnsLineUp(List<String> table) {
    String header = table.get(0);
    List<Integer> starts = new ArrayList<>();
    for (int at = 0; at < header.length(); at++) {
      if (header.charAt(at) != ' ' && (at == 0 || header.charAt(at - 1) == ' ')) {
        starts.add(at);
      }
    }
    assertThat(starts).hasSameSizeAs(TableRenderer.HEADER);
    for (String line : table) {
      for (int start : starts) {
        assertThat(line.length()).as("line %s", line).isGreaterThan(start);
        assertThat(line.charAt(start)).as("column at %d of: %s", start, line).isNotEqualTo(' ');
        if (start > 0) {
          assertThat(line.substring(start - 2, start))
              .as("before %d of: %s", start, line)
              .isEqualTo("  ");
        }
      }
    }
  }
}
