/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Managing leases with the real tool: an operator's forced release, pruning, and the default
 * database that is created with its directory.
 */
class ManageProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  private String[] args(String command, String... rest) {
    List<String> all =
        new ArrayList<>(List.of(command, "--db", temp.resolve("leases.db").toString()));
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  @Test
  void forcedReleaseRefusesAnotherGenerationAndStopsTheHolderOfTheRightOne() throws Exception {
    String token;
    try (LeaseTool holder =
        LeaseTool.start(
            args(
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
      token = holder.awaitStdout("running token=(\\d+)");
      String other = Long.toString(Long.parseLong(token) + 1);

      LeaseTool wrong = LeaseTool.run(args("release", "stuck", "--generation", other));
      assertThat(wrong.awaitExit()).as("%s", wrong).isEqualTo(ExitCodes.REFUSED);
      assertThat(wrong.stderrLines())
          .singleElement()
          .asString()
          .contains(
              "'stuck' is at generation " + token + " (held), not " + other + "; nothing released");
      assertThat(holder.isAlive()).isTrue();

      LeaseTool right = LeaseTool.run(args("release", "stuck", "--generation", token));
      assertThat(right.awaitExit()).as("%s", right).isZero();
      assertThat(right.stdout()).startsWith("released lease 'stuck' generation " + token + " ");

      assertThat(holder.awaitExit()).as("%s", holder).isEqualTo(ExitCodes.LOST);
      assertThat(holder.stdout()).contains("child got TERM");
      assertThat(String.join("\n", holder.stderrLines()))
          .contains("generation " + token + " was lost (released by an operator)")
          .doesNotContain("taken over");
    }
    LeaseTool again = LeaseTool.run(args("release", "stuck", "--generation", token));
    assertThat(again.awaitExit()).isZero();
    assertThat(again.stdout()).contains("already released");
    JsonNode status = JSON.readTree(LeaseTool.run(args("status", "stuck", "--json")).stdout());
    assertThat(status.get("state").asText()).isEqualTo("released");
    assertThat(status.get("generation").asText()).isEqualTo(token);

    LeaseTool next =
        LeaseTool.run(args("run", "stuck", "--", "sh", "-c", "echo token=$LEASE_TOKEN"));
    assertThat(Long.parseLong(next.awaitStdout("token=(\\d+)")))
        .isGreaterThan(Long.parseLong(token));
  }

  @Test
  void releaseOfAKeyWithoutARecordIsRefused() {
    LeaseTool release = LeaseTool.run(args("release", "never", "--generation", "1"));

    assertThat(release.awaitExit()).isEqualTo(ExitCodes.REFUSED);
    assertThat(release.stderr())
        .isEqualTo("lease release: lease 'never' has no record; nothing released");
  }

  @Test
  void pruneRemovesTombstonesAndTheNextGenerationIsStillHigher() throws Exception {
    String[] printToken = args("run", "old", "--", "sh", "-c", "echo token=$LEASE_TOKEN");
    long first = tokenOf(LeaseTool.run(printToken));
    long second = tokenOf(LeaseTool.run(printToken));
    assertThat(second).isGreaterThan(first);

    LeaseTool keep = LeaseTool.run(args("prune", "--older-than", "1h"));
    assertThat(keep.stdout()).isEqualTo("pruned 0 tombstones older than 1h");
    LeaseTool prune = LeaseTool.run(args("prune", "--older-than", "0s"));
    assertThat(prune.awaitExit()).isZero();
    assertThat(prune.stdout()).isEqualTo("pruned 1 tombstone older than 0s");

    assertThat(JSON.readTree(LeaseTool.run(args("list", "--json")).stdout())).isEmpty();
    assertThat(
            JSON.readTree(LeaseTool.run(args("status", "old", "--json")).stdout())
                .get("state")
                .asText())
        .isEqualTo("absent");
    assertThat(tokenOf(LeaseTool.run(printToken)))
        .as("above the pruned tombstone's, not a new first generation")
        .isGreaterThan(second);
  }

  private static long tokenOf(LeaseTool run) {
    assertThat(run.awaitExit()).as("%s", run).isZero();
    return Long.parseLong(run.awaitStdout("token=(\\d+)"));
  }

  @Test
  void pruneIsAUsageErrorWhereTheRepositoryCannotPrune() {
    LeaseTool prune =
        LeaseTool.run("prune", "--dir", temp.resolve("files").toString(), "--older-than", "0s");

    assertThat(prune.awaitExit()).isEqualTo(ExitCodes.USAGE);
    assertThat(prune.stderrLines()).singleElement().asString().contains("cannot prune");
  }

  @Test
  void theDefaultDatabaseIsCreatedWithItsDirectoryUnderXdgStateHomeOrLeaseDb() throws Exception {
    Path state = temp.resolve("state");
    Map<String, String> xdg = new HashMap<>();
    xdg.put("LEASE_DB", null);
    xdg.put("XDG_STATE_HOME", state.toString());
    LeaseTool first = LeaseTool.start(xdg, "run", "job", "--", "true");
    first.closeStdin();
    assertThat(first.awaitExit()).as("%s", first).isZero();
    assertThat(state.resolve("lease/leases.db")).isRegularFile();

    Path explicit = temp.resolve("elsewhere/deep/leases.db");
    LeaseTool second =
        LeaseTool.start(Map.of("LEASE_DB", explicit.toString()), "run", "other", "--", "true");
    second.closeStdin();
    assertThat(second.awaitExit()).as("%s", second).isZero();
    assertThat(explicit).isRegularFile();

    LeaseTool list = LeaseTool.start(xdg, "list", "--json");
    list.closeStdin();
    list.awaitExit();
    JsonNode listed = JSON.readTree(list.stdout());
    assertThat(listed).as("the XDG database holds only its own key").hasSize(1);
    assertThat(listed.get(0).get("key").asText()).isEqualTo("job");
    assertThat(Files.exists(temp.resolve("leases.db"))).isFalse();
  }
}
