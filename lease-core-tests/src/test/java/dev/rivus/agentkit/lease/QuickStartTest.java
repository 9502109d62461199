/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start and the library guide's builder, compiled and run, and checked to be the
 * same text as the pages'.
 */
class QuickStartTest {

  @TempDir Path leaseDirectory;

  /** A resource that records what was saved with which token. */
  static final class Store {
    final List<String> saved = new ArrayList<>();

    String save(String value, long token) {
      saved.add(value + "@" + token);
      return value;
    }
  }

  private final Store store = new Store();
  private final String result = "result";
  private int longWorkRuns;

  private int longRunningWork() {
    return ++longWorkRuns;
  }

  @Test
  void theQuickStartRunsAsWritten() throws Exception {
    String saved = quickStart(leaseDirectory);

    assertThat(saved).isEqualTo("result");
    assertThat(longWorkRuns).isEqualTo(1);
    try (LeaseRepository repository = FileLeaseRepository.open(leaseDirectory)) {
      LeaseSnapshot tombstone = repository.load("task:42").orElseThrow();
      assertThat(tombstone.state()).isEqualTo(LeaseState.RELEASED);
      assertThat(store.saved).containsExactly("result@" + tombstone.generation());
    }
  }

  private String quickStart(Path directory) throws Exception {
    // --- begin README snippet (the README's path is /var/lib/my-app/leases) ---
    try (LeaseRepository repository = FileLeaseRepository.open(directory);
        LeaseManager leases =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(60))
                .heartbeat(Duration.ofSeconds(15))
                .build();
        Lease lease = leases.acquire("task:42")) { // LeaseHeld while another live holder renews it

      // Fenced work runs only while this handle holds its generation, under the key lock,
      // and is interrupted if the lease is lost meanwhile. Pass the token to the resource.
      String saved = lease.runFenced(token -> store.save(result, token.generation()));

      // Other work raced against loss: interrupted when the lease is lost.
      lease.runUntilLost(() -> longRunningWork());

      // A per-lease loss signal.
      lease.lost().thenAccept(lost -> System.err.println(lost.getMessage()));
      // --- end README snippet ---
      return saved;
    }
  }

  /** What the builder example's listener tells, and what its judge is asked. */
  private final List<String> raised = new ArrayList<>();

  private final List<Duration> latencies = new ArrayList<>();
  private final ThreadFactory myThreads = Thread::new;
  private final Alerts alertsSink = new Alerts();
  private final Timer timer = new Timer();

  private final class Alerts {
    void raise(String key, LeaseLost.Reason reason) {
      raised.add(key + ":" + reason);
    }
  }

  private final class Timer {
    void record(Duration latency) {
      latencies.add(latency);
    }
  }

  /** A judge as an application might write one; this one can tell nothing. */
  private final LivenessJudge pods = holder -> Liveness.UNKNOWN;

  @Test
  void theBuilderExampleBuildsAManagerAsWritten() {
    LeaseRepository repository = new MemoryLeaseRepository();
    Alerts alerts = alertsSink;
    // --- begin README builder snippet ---
    LeaseManager leases =
        LeaseManager.builder(repository)
            .ttl(Duration.ofSeconds(30)) // the heartbeat defaults to a quarter of it
            .name("billing") // in thread names, messages and events
            .threadFactory(myThreads) // the manager's own threads (at most seven)
            .livenessJudge(pods) // judge holders your way, e.g. by Kubernetes pod state
            .listener(
                new LeaseListener() {
                  @Override
                  public void lost(LeaseEvent.Lost event) {
                    alerts.raise(event.key(), event.reason());
                  }

                  @Override
                  public void renewed(LeaseEvent.Renewed event) {
                    timer.record(event.latency());
                  }
                })
            .build();
    // --- end README builder snippet ---
    try (leases) {
      assertThat(leases.name()).isEqualTo("billing");
      assertThat(leases.config())
          .isEqualTo(new LeaseConfig(Duration.ofSeconds(30), Duration.ofMillis(7500)));
    }
  }

  @Test
  void theReadmeAndTheLibraryGuideShowTheSameCode() throws IOException {
    assertPageShows("README.md", "README snippet");
    assertPageShows("docs/library.md", "README snippet");
    assertPageShows("docs/library.md", "README builder snippet");
  }

  private static void assertPageShows(String page, String name) throws IOException {
    String readme = Files.readString(root().resolve(page), StandardCharsets.UTF_8);
    String test =
        Files.readString(
            Path.of("src/test/java/dev/rivus/agentkit/lease/QuickStartTest.java"),
            StandardCharsets.UTF_8);
    String snippet =
        test.substring(test.indexOf("// --- begin " + name), test.indexOf("// --- end " + name));

    for (String line : snippet.lines().skip(1).map(String::strip).toList()) {
      String expected =
          line.replace(
              "FileLeaseRepository.open(directory)",
              "FileLeaseRepository.open(Path.of(\"/var/lib/my-app/leases\"))");
      assertThat(readme).as(page + " line").contains(expected);
    }
  }

  private static Path root() {
    Path here = Path.of("").toAbsolutePath();
    while (here != null && !Files.exists(here.resolve("README.md"))) {
      here = here.getParent();
    }
    assertThat(here).as("a README.md above " + Path.of("").toAbsolutePath()).isNotNull();
    return here;
  }
}
