/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The commands in this JVM, on a memory repository and a fake platform: help, views, pruning. */
class InProcessCommandsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final FakePlatform platform =
      new FakePlatform(new ProcessIdentity("build-7", "boot-1", "pid:[1]", 100, "ticks:100"));
  private final MemoryLeaseRepository repository = new MemoryLeaseRepository();
  private final InProcessCli cli = new InProcessCli(repository, platform);

  private void store(String key, ProcessIdentity holder, boolean held) {
    LeaseWrite first =
        LeaseSnapshot.firstAcquisition(
            key, new HolderIdentity(holder, "h-" + key), java.time.Duration.ofMinutes(1), NOW);
    repository.save(first);
    if (!held) {
      repository.save(first.snapshot().release(NOW));
    }
  }

  @ParameterizedTest(name = "lease {0} --help")
  @ValueSource(strings = {"", "run", "status", "list", "release", "prune"})
  void everyCommandHasHelpWithExamplesAndExitCodes(String command) {
    InProcessCli.Result help = command.isEmpty() ? cli.run("--help") : cli.run(command, "--help");

    assertThat(help.code()).isZero();
    assertThat(help.out()).contains("Usage: lease", "Examples:", "Exit codes:", " 64 ");
    assertThat(help.err()).isEmpty();
  }

  @Test
  void runHelpDocumentsEveryExitCodeOfRun() {
    assertThat(cli.run("run", "--help").out())
        .contains(" 64 ", " 70 ", " 74 ", " 75 ", " 76 ", "126 ", "LEASE_TOKEN", "setpriv");
  }

  @Test
  void runHelpSaysTheTtlFloorWhyAndThatTheTtlIsRecordedAndWhereTokensStart() {
    String help = cli.run("run", "--help").out().replaceAll("\\s+", " ");

    assertThat(help)
        .contains(
            "at least 1s",
            "a tenth of the TTL early",
            "under 100ms",
            "The TTL is written in the record",
            "wait for the longer one",
            "at least 10ms",
            "wall clock in microseconds");
  }

  @Test
  void statusJudgesEachHolderFromHere() throws Exception {
    ProcessIdentity running = platform.startSibling(200);
    ProcessIdentity dead = platform.startSibling(300);
    platform.kill(dead);
    store("alive", running, true);
    store("dead", dead, true);
    store("elsewhere", new ProcessIdentity("other", "boot-9", "pid:[9]", 400, "t"), true);
    store("done", running, false);

    JsonNode list = JSON.readTree(cli.run("list", "--json").out());

    assertThat(list.findValuesAsText("key")).containsExactly("alive", "dead", "done", "elsewhere");
    assertThat(list.get(0).get("process").asText()).isEqualTo("alive");
    assertThat(list.get(1).get("process").asText()).isEqualTo("dead");
    assertThat(list.get(2).get("process").isNull()).isTrue();
    assertThat(list.get(3).get("process").asText()).isEqualTo("unknown");
  }

  @Test
  void observingOverAWindowReportsARecordUnchangedForThatWindow() throws Exception {
    store("steady", platform.startSibling(200), true);

    JsonNode status = JSON.readTree(cli.run("status", "steady", "--observe", "5s", "--json").out());

    assertThat(status.get("observedUnchangedMillis").asLong()).isEqualTo(5000);
  }

  @Test
  void aRecordRenewedDuringTheWindowIsReportedUnchangedForZero() throws Exception {
    store("busy", platform.startSibling(200), true);
    AtomicInteger loads = new AtomicInteger();
    LeaseRepository renewing =
        new ForwardingLeaseRepository(repository) {
          @Override
          public Optional<LeaseSnapshot> load(String key) {
            if (loads.incrementAndGet() == 2) { // the holder renews between our two reads
              LeaseSnapshot current = repository.load(key).orElseThrow();
              repository.save(current.renewal(NOW));
            }
            return repository.load(key);
          }
        };

    InProcessCli.Result result =
        new InProcessCli(renewing, platform).run("status", "busy", "--observe", "5s", "--json");

    JsonNode status = JSON.readTree(result.out());
    assertThat(status.get("revision").asLong()).isEqualTo(2);
    assertThat(status.get("observedUnchangedMillis").asLong()).isZero();
  }

  @Test
  void theTableEscapesKeysThatWouldBreakItsColumns() {
    store("a b\nc", platform.startSibling(200), true);

    List<String> lines = cli.run("list").out().lines().toList();

    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).startsWith("a\\u0020b\\u000ac  held");
  }

  @Test
  void pruneAsksAPrunableRepositoryAndReportsTheCount() {
    Duration[] asked = new Duration[1];
    PrunableLeaseRepository prunable =
        new PrunableDelegating(repository) {
          @Override
          public int prune(Duration olderThan) {
            asked[0] = olderThan;
            return 3;
          }
        };

    InProcessCli.Result result =
        new InProcessCli(prunable, platform).run("prune", "--older-than", "30d");

    assertThat(result.code()).isZero();
    assertThat(asked[0]).isEqualTo(Duration.ofDays(30));
    assertThat(result.out())
        .isEqualTo("pruned 3 tombstones older than 30d" + System.lineSeparator());
  }

  @Test
  void pruneOnARepositoryThatCannotPruneIsAUsageError() {
    store("old", platform.startSibling(200), false);
    LeaseRepository notPrunable = new ForwardingLeaseRepository(repository);
    assertThat(notPrunable).isNotInstanceOf(PrunableLeaseRepository.class);

    InProcessCli.Result result =
        new InProcessCli(notPrunable, platform).run("prune", "--older-than", "0s");

    assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("lease prune: ").contains("cannot prune");
    assertThat(repository.loadAll())
        .as("nothing was pruned")
        .extracting(LeaseSnapshot::key)
        .containsExactly("old");
  }

  @Test
  void anUnexpectedFailureIsOneLineWithTheInternalErrorCode() {
    LeaseRepository broken =
        new ForwardingLeaseRepository(repository) {
          @Override
          public List<LeaseSnapshot> loadAll() {
            throw new IllegalStateException("boom");
          }
        };

    InProcessCli.Result result = new InProcessCli(broken, platform).run("list");

    assertThat(result.code()).isEqualTo(ExitCodes.SOFTWARE);
    assertThat(result.err().lines().toList())
        .containsExactly(
            "lease list: internal error: java.lang.IllegalStateException: boom"
                + " (set LEASE_DEBUG=1 for details)");
  }

  private abstract static class PrunableDelegating extends ForwardingLeaseRepository
      implements PrunableLeaseRepository {
    PrunableDelegating(LeaseRepository delegate) {
      super(delegate);
    }
  }

  @Test
  void anUnknownCommandIsNamedAsOneWithPicocliSuggestionAfterIt() {
    InProcessCli.Result typo = cli.run("rnu", "job", "--", "true");
    InProcessCli.Result suggested = cli.run("stauts", "job");

    assertThat(typo.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(typo.out()).isEmpty();
    assertThat(typo.err()).isEqualTo("lease: unknown command 'rnu' (see 'lease --help')\n");
    assertThat(suggested.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(suggested.err().lines())
        .containsExactly(
            "lease: unknown command 'stauts' (see 'lease --help')",
            "Did you mean: lease status or lease list?");
  }

  @Test
  void anUnknownOptionIsStillNamedByPicocli() {
    InProcessCli.Result option = cli.run("--bogus");

    assertThat(option.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(option.err()).startsWith("lease: Unknown option: '--bogus'");
  }

  @Test
  void durationsAreEchoedInTheFormTheyAreWrittenNotAsIso8601() {
    InProcessCli.Result ratio = cli.run("run", "--ttl", "10s", "--heartbeat", "6s", "k", "--", "x");
    InProcessCli.Result iso =
        cli.run("run", "--ttl", "PT10S", "--heartbeat", "PT6S", "k", "--", "x");
    InProcessCli.Result fraction =
        cli.run("run", "--ttl", "2s", "--heartbeat", "1500ms", "k", "--", "x");

    assertThat(ratio.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(ratio.err())
        .isEqualTo(
            "lease run: --heartbeat 6s must be at most half the --ttl 10s (at most 5s), so that a"
                + " holder renews at least twice within its TTL\n");
    assertThat(iso.err()).isEqualTo(ratio.err());
    assertThat(fraction.err())
        .startsWith(
            "lease run: --heartbeat 1s500ms must be at most half the --ttl 2s (at most 1s)");
  }
}
