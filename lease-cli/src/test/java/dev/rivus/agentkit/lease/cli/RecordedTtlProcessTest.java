/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TTL as the real tool handles it (issue 7, items 1 and 12): written in the record, so that a
 * process with a shorter {@code --ttl} waits for the holder's longer one; shown by {@code status}
 * and {@code list}; and never below the 1 s floor.
 */
@Tag("cross-process")
class RecordedTtlProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  private String[] args(String command, String... rest) {
    List<String> all =
        new ArrayList<>(List.of(command, "--db", temp.resolve("leases.db").toString()));
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  /**
   * The reproduction of issue 7, item 1: a holder with a 60 s TTL renews every 15 s; a second run
   * with {@code --ttl 2s --wait 7s} used to take the lease over after its own 2 s and run beside
   * it. The first command here ends when the test says so rather than after {@code sleep 8}, so
   * that the second's whole wait falls inside the first's run however slowly the machine goes.
   */
  @Test
  void aRunWithAShorterTtlWaitsForTheHoldersLongerOneAndDoesNotRunItsCommandMeanwhile()
      throws Exception {
    long before = Tokens.microsNow();
    long token;
    try (LeaseTool first =
        LeaseTool.start(
            args(
                "run",
                "--ttl",
                "60s",
                "km",
                "--",
                "sh",
                "-c",
                "echo started token=$LEASE_TOKEN; read line; echo first done"))) {
      token = Tokens.assertFirst(first.awaitStdout("started token=(\\d+)"), before);

      LeaseTool second =
          LeaseTool.run(
              args(
                  "run",
                  "--ttl",
                  "2s",
                  "--wait",
                  "7s",
                  "km",
                  "--",
                  "sh",
                  "-c",
                  "echo second ran token=$LEASE_TOKEN"));

      assertThat(second.awaitExit()).as("%s", second).isEqualTo(ExitCodes.HELD);
      assertThat(second.stdout()).as("%s", second).doesNotContain("second ran");
      List<String> told = second.stderrLines();
      assertThat(told.get(0))
          .as("%s", second)
          .startsWith("lease: lease 'km' is held by ")
          .contains("pid " + first.pid(), "(generation " + token + ", alive)", "waiting up to 7s");
      assertThat(told.get(told.size() - 1))
          .as("%s", second)
          .startsWith("lease run: lease 'km' is held by ")
          .contains("pid " + first.pid(), "gave up after waiting 7s");
      assertThat(told)
          .as("the second counts the holder's TTL, not its own 2s")
          .allSatisfy(line -> assertThat(line).contains("of the 1m TTL"));

      assertThat(first.isAlive()).as("%s", first).isTrue();
      assertThat(first.stdout()).doesNotContain("first done");
      JsonNode status = JSON.readTree(LeaseTool.run(args("status", "km", "--json")).stdout());
      assertThat(status.get("state").asText()).isEqualTo("held");
      assertThat(status.get("generation").asLong()).isEqualTo(token);
      assertThat(status.get("holder").get("pid").asLong()).isEqualTo(first.pid());
      assertThat(status.get("ttlMillis").asLong()).isEqualTo(60_000);

      first.writeLine("go");
      assertThat(first.awaitExit()).as("%s", first).isZero();
      assertThat(first.stdout()).contains("first done");
      assertThat(first.stderr()).as("no loss, no warning").isEmpty();
    }
    JsonNode after = JSON.readTree(LeaseTool.run(args("status", "km", "--json")).stdout());
    assertThat(after.get("state").asText()).isEqualTo("released");
    assertThat(after.get("generation").asLong()).as("no one else acquired it").isEqualTo(token);
  }

  /**
   * Issue 7, item 12: the floor lets 1 s through, and the record keeps it. (Refusals below the
   * floor are in {@link BadInputProcessTest}.) The command ends at once: a 1 s lease held while
   * other JVMs start on a loaded machine could be lost, which is what the floor warns about.
   */
  @Test
  void aOneSecondTtlIsAcceptedAndRecorded() throws Exception {
    LeaseTool run = LeaseTool.run(args("run", "--ttl", "1s", "brief", "--", "echo", "ran"));

    assertThat(run.awaitExit()).as("%s", run).isZero();
    assertThat(run.stdout()).isEqualTo("ran");
    assertThat(run.stderr()).as("%s", run).isEmpty();
    JsonNode status = JSON.readTree(LeaseTool.run(args("status", "brief", "--json")).stdout());
    assertThat(status.get("state").asText()).isEqualTo("released");
    assertThat(status.get("ttlMillis").asLong()).as("the tombstone keeps it").isEqualTo(1_000);
  }

  /**
   * A record written before TTLs were recorded (a format 1 JSON file) is read with the longest TTL;
   * the tool says it does not know the TTL instead of showing 36500 days.
   */
  @Test
  void aRecordWrittenByAnOlderVersionShowsItsTtlAsUnknown() throws Exception {
    Path store = temp.resolve("files");
    String[] dir = {"--dir", store.toString()};
    assertThat(LeaseTool.run("run", dir[0], dir[1], "legacy", "--", "true").awaitExit()).isZero();
    Path record = onlyRecord(store);
    ObjectNode old = (ObjectNode) JSON.readTree(Files.readString(record, StandardCharsets.UTF_8));
    assertThat(old.remove("ttl")).as("this version writes the TTL").isNotNull();
    old.put("format", 1);
    old.put("state", "HELD");
    ObjectNode process = (ObjectNode) old.get("holder").get("process");
    process.put("host", "old-host");
    process.put("bootId", "another-boot");
    Files.writeString(record, JSON.writeValueAsString(old), StandardCharsets.UTF_8);

    JsonNode status =
        JSON.readTree(LeaseTool.run("status", dir[0], dir[1], "legacy", "--json").stdout());
    JsonNode list = JSON.readTree(LeaseTool.run("list", dir[0], dir[1], "--json").stdout());
    List<String> table = LeaseTool.run("status", dir[0], dir[1], "legacy").stdoutLines();
    LeaseTool run = LeaseTool.run("run", dir[0], dir[1], "legacy", "--", "echo", "ran");

    assertThat(status.get("state").asText()).isEqualTo("held");
    assertThat(status.get("process").asText()).isEqualTo("unknown");
    assertThat(status.has("ttlMillis")).isTrue();
    assertThat(status.get("ttlMillis").isNull()).as("%s", status).isTrue();
    assertThat(list.get(0).get("ttlMillis").isNull()).as("%s", list).isTrue();
    assertThat(table).hasSize(2);
    int column = TableRenderer.HEADER.indexOf("TTL");
    assertThat(table.get(1).split("\\s+")[column]).isEqualTo("unknown");
    InspectProcessTest.assertColumnsLineUp(table);
    assertThat(run.awaitExit()).as("%s", run).isEqualTo(ExitCodes.HELD);
    assertThat(run.stdout()).doesNotContain("ran");
    assertThat(run.stderrLines())
        .singleElement()
        .asString()
        .contains("held by old-host", "of an unknown TTL", "not waiting")
        .doesNotContain("36500");
  }

  private static Path onlyRecord(Path store) throws Exception {
    List<Path> records = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(store, "*.json")) {
      files.forEach(records::add);
    }
    assertThat(records).hasSize(1);
    return records.get(0);
  }
}
