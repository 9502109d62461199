/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.check.Checker;
import dev.rivus.agentkit.lease.safety.check.Verdict;
import dev.rivus.agentkit.lease.safety.faults.DatabaseFaults;
import dev.rivus.agentkit.lease.safety.faults.FaultInjector;
import dev.rivus.agentkit.lease.safety.faults.StorageFaults;
import dev.rivus.agentkit.lease.safety.resource.ResourceClient;
import dev.rivus.agentkit.lease.safety.resource.ResourceMain;
import dev.rivus.agentkit.lease.safety.store.Database;
import dev.rivus.agentkit.lease.safety.store.DatabasePhase;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorker;
import dev.rivus.agentkit.lease.safety.workers.WorkerSettings;
import dev.rivus.agentkit.lease.safety.workers.WorkerSlot;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import dev.rivus.agentkit.lease.testsupport.PrivateServer;
import dev.rivus.agentkit.lease.testsupport.TestEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs one {@link Phase}: starts the resource and the workers, lets the {@link FaultInjector} work
 * for the phase's duration, stops everything, and hands the logs to the {@link Checker}.
 *
 * <p>Its constants are the settings every phase shares, which the workers and the checker read too.
 *
 * <p>Not thread-safe: one phase at a time.
 */
public final class PhaseRunner {

  /** Every worker's TTL and heartbeat, by slot: odd slots 2 s / 500 ms, even slots 3 s / 750 ms. */
  static final Duration SHORT_TTL = Duration.ofSeconds(2);

  /** The even slots' TTL, the longer of the two. */
  public static final Duration LONG_TTL = Duration.ofSeconds(3);

  /**
   * Every worker's grace ({@code LeaseManagerBuilder.grace}; {@code lease run --grace 1s} too): on
   * a database, the server ends the key lock of a holder silent for its TTL, this, and 1 s.
   */
  public static final Duration GRACE = Duration.ofSeconds(1);

  /**
   * How long a network cut lasts: three of the longest TTLs, longer than the bound on a silent
   * holder's key lock (TTL + grace + 1 s), so that a successor gets in while the cut lasts (P8).
   */
  static final Duration CUT_FOR = LONG_TTL.multipliedBy(3);

  /** The keys every worker of a phase acquires, at random. */
  public static final List<String> KEYS = List.of("k1", "k2", "k3", "k4");

  static final Duration CALL_DEADLINE = Duration.ofSeconds(20);
  private static final Duration START_WAIT = Duration.ofSeconds(90);

  private PhaseRunner() {}

  static Verdict run(Phase phase, Path runDirectory) throws IOException, InterruptedException {
    Database database = Database.of(phase.store());
    boolean restarts = phase.store().onPrivateServer();
    String unreachable =
        database == null
            ? null
            : restarts ? PrivateServer.unavailable(database.privateKind()) : database.unreachable();
    if (database != null && unreachable != null) {
      String what =
          restarts
              ? "a private " + database.product() + " server to restart"
              : database.product() + " at " + database.url() + " (" + database.urlVariable() + ")";
      return Verdict.unavailable(what + " unavailable: " + unreachable, TestEnvironment.isCi());
    }
    Path dir = Files.createDirectories(runDirectory.resolve(phase.label()));
    try (JsonLines log = JsonLines.append(dir.resolve("driver.jsonl"));
        PrivateServer server = restarts ? startPrivate(database) : null;
        DatabasePhase db =
            database == null
                ? null
                : prepare(
                    database,
                    server != null ? server.url() : database.url(),
                    dir,
                    phase.workers(),
                    log);
        ChildJvm resource =
            ChildJvm.start(
                ResourceMain.class,
                dir.resolve("resource.jsonl").toString(),
                phase.fencing() ? "fencing" : "no-fencing")) {
      int port = Integer.parseInt(resource.awaitLine("PORT ", START_WAIT).substring(5).trim());
      List<WorkerSlot> slots = new ArrayList<>();
      // Storage faults and noisy workers are the file and SQLite phases' (the databases have their
      // own faults, DatabaseFaults); lease run workers are every phase's but the negative
      // control's.
      boolean attacked = phase.store() == StoreKind.FILE || phase.store() == StoreKind.SQLITE;
      // Without the resource's token check, no store lost on purpose: after one, only that check
      // protects the resource from the old store's holders (docs/sqlite.md, "Resetting a store").
      StorageFaults storage =
          attacked ? StorageFaults.prepare(phase.store(), dir, log, phase.fencing()) : null;
      LeaseRunSlot runs = null;
      NoisyWorker noisy = null;
      try (ResourceClient client = ResourceClient.connect(port)) {
        for (int slot = 1; slot <= phase.workers(); slot++) {
          Duration ttl = slot % 2 == 1 ? SHORT_TTL : LONG_TTL;
          WorkerSettings template =
              new WorkerSettings(
                  "w" + slot,
                  phase.store(),
                  dir,
                  port,
                  ttl,
                  ttl.dividedBy(4),
                  KEYS,
                  phase.seed(),
                  CALL_DEADLINE);
          slots.add(new WorkerSlot(slot, template, log));
        }
        for (WorkerSlot slot : slots) {
          slot.awaitReady(START_WAIT);
        }
        Map<String, Object> start = JsonLines.fields("t", System.nanoTime());
        start.put("phase", phase.label());
        start.put("seed", phase.seed());
        log.write(start);
        // 1.5 × the longest TTL; without fencing 2.5 ×, longer than any successor took to take
        // over (at most 4.1 s in the long run): a missing key lock must show in every such phase.
        Duration stopFor =
            (phase.workers() > 1 ? LONG_TTL : SHORT_TTL)
                .multipliedBy(phase.fencing() ? 3 : 5)
                .dividedBy(2);
        if (attacked || db != null) {
          runs = new LeaseRunSlot(phase.workers() + 1, phase.store(), dir, port, phase.seed(), log);
          runs.start();
        }
        if (attacked) {
          noisy =
              new NoisyWorker(
                  new WorkerSettings(
                      "w" + (phase.workers() + 2),
                      phase.store(),
                      dir,
                      port,
                      LONG_TTL,
                      LONG_TTL.dividedBy(4),
                      KEYS,
                      phase.seed(),
                      CALL_DEADLINE),
                  log);
          noisy.start();
          java.util.Objects.requireNonNull(storage).attach(noisy);
        }
        FaultInjector faults =
            new FaultInjector(
                    new Random(phase.seed()),
                    slots,
                    client,
                    log,
                    stopFor,
                    // Without fencing (the negative control, a mutant's run and its control) every
                    // round opens with a SIGSTOP inside a fenced section: a missing key lock shows.
                    !phase.fencing(),
                    db == null ? null : new DatabaseFaults(db, slots, log, CUT_FOR, server))
                .with(storage, runs)
                .with(noisy);
        faults.run(System.nanoTime() + phase.duration().toNanos());
        stopAll(slots, log);
        if (noisy != null) {
          noisy.stop(CALL_DEADLINE.plusSeconds(15));
        }
        if (db != null) {
          recordFinalState(db, log);
        }
        if (runs != null) {
          runs.close();
        }
        client.call("FINISH");
      } finally {
        slots.forEach(WorkerSlot::close);
        if (runs != null) {
          runs.close();
        }
        if (noisy != null) {
          noisy.close();
        }
        if (storage != null) {
          storage.close();
        }
      }
    }
    return Checker.check(dir, phase.thresholds(), phase.negativeControl());
  }

  /** The phase's tables and proxies on a database; a failure is the driver's, and ends the run. */
  private static DatabasePhase prepare(
      Database database, String url, Path dir, int workers, JsonLines log)
      throws IOException, InterruptedException {
    try {
      DatabasePhase db = DatabasePhase.prepare(database, url, dir, workers, KEYS);
      Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
      line.put("db", "table");
      line.put("table", db.table());
      log.write(line);
      return db;
    } catch (SQLException e) {
      throw new IOException("cannot prepare the " + database.product() + " phase: " + e, e);
    }
  }

  private static PrivateServer startPrivate(@Nullable Database database)
      throws IOException, InterruptedException {
    return PrivateServer.start(java.util.Objects.requireNonNull(database).privateKind());
  }

  private static void recordFinalState(DatabasePhase db, JsonLines log) throws IOException {
    try {
      db.recordFinalState(log);
    } catch (SQLException e) {
      throw new IOException("cannot read the side table of " + db.table() + ": " + e, e);
    }
  }

  /** Asks every worker to stop after its cycle; one that does not in time is a hang. */
  private static void stopAll(List<WorkerSlot> slots, JsonLines log) throws InterruptedException {
    for (WorkerSlot slot : slots) {
      try {
        slot.child().send("STOP");
      } catch (java.io.UncheckedIOException died) {
        // it died: its exit code tells below
      }
    }
    Duration patience = CALL_DEADLINE.plusSeconds(15);
    for (WorkerSlot slot : slots) {
      ProcessHandle handle = slot.child().handle();
      int code;
      try {
        code = slot.child().awaitExit(patience);
      } catch (AssertionError stillRunning) {
        Map<String, Object> line = slot.fault("exit_hang");
        line.put("detail", "did not stop within " + patience + ":\n" + threadDump(handle.pid()));
        log.write(line);
        continue;
      }
      if (code != 0) {
        Map<String, Object> line = slot.fault("crash");
        line.put("detail", "exit code " + code + "\n" + slot.child().diagnostics());
        log.write(line);
      }
    }
  }

  /** The thread dump of another JVM, through {@code jcmd}, or why there is none. */
  private static String threadDump(long pid) throws InterruptedException {
    try {
      Process jcmd =
          new ProcessBuilder("jcmd", Long.toString(pid), "Thread.print")
              .redirectErrorStream(true)
              .start();
      byte[] out = jcmd.getInputStream().readAllBytes();
      jcmd.waitFor(10, TimeUnit.SECONDS);
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no thread dump: " + e.getMessage() + ")";
    }
  }
}
