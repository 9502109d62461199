/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorker;
import dev.rivus.agentkit.lease.safety.workers.WorkerSlot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The phase's workers as the storage faults see them: what an operator restarts after a lost store
 * (every library worker, the noisy one, and the {@code lease run} slot, paused meanwhile), and
 * whether every worker's current life has opened the store.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class WorkerRestarts {

  /** How long a worker may take to stop after its cycle, or to start and open the store. */
  static final Duration PATIENCE = Duration.ofSeconds(40);

  private final StoreSite site;
  private List<WorkerSlot> slots = List.of();
  private @Nullable LeaseRunSlot runs;
  private @Nullable NoisyWorker noisy;

  WorkerRestarts(StoreSite site) {
    this.site = site;
  }

  void attach(List<WorkerSlot> slots, @Nullable LeaseRunSlot runs) {
    this.slots = slots;
    this.runs = runs;
  }

  void attach(@Nullable NoisyWorker noisy) {
    this.noisy = noisy;
  }

  /** No new {@code lease run} starts until {@link #resumeLeaseRuns()}: the store is going away. */
  void pauseLeaseRuns() {
    LeaseRunSlot r = runs;
    if (r != null) {
      r.pause();
    }
  }

  void resumeLeaseRuns() {
    LeaseRunSlot r = runs;
    if (r != null) {
      r.resume();
    }
  }

  /**
   * As an operator after a lost store: stops every worker, then starts them on the new store.
   *
   * @return the ids of the lives that were stopped (their logs are complete)
   */
  List<String> restartAll() throws InterruptedException {
    List<String> stopped = new ArrayList<>();
    for (WorkerSlot slot : slots) {
      stopped.add(slot.id());
      try {
        slot.child().send("STOP");
      } catch (UncheckedIOException died) {
        // its exit code tells below
      }
    }
    LeaseRunSlot r = runs;
    if (r != null) {
      r.awaitIdle(PATIENCE);
    }
    NoisyWorker n = noisy;
    if (n != null) {
      stopped.add(n.id());
      n.stop(PATIENCE);
      n.start();
    }
    for (WorkerSlot slot : slots) {
      try {
        int code = slot.child().awaitExit(PATIENCE);
        if (code != 0) {
          Map<String, Object> line = slot.fault("crash");
          line.put("detail", "exit code " + code + " when stopped after a lost store");
          site.log().write(line);
        }
      } catch (AssertionError stillRunning) {
        Map<String, Object> line = slot.fault("exit_hang");
        line.put("detail", "did not stop within " + PATIENCE + " after a lost store");
        site.log().write(line);
      }
      slot.respawn();
    }
    for (WorkerSlot slot : slots) {
      slot.awaitReady(PATIENCE);
    }
    site.writeNote("restart");
    return stopped;
  }

  /**
   * Waits until every worker's current life has opened the store (its log's {@code start} line): a
   * worker that opens it while it is read-only or full fails to start, which would be the harness's
   * doing (a respawn after a kill just before), not the library's.
   */
  void awaitWorkersOpen() throws InterruptedException {
    long until = System.nanoTime() + PATIENCE.toNanos();
    List<String> ids = new ArrayList<>();
    slots.forEach(slot -> ids.add(slot.id()));
    if (noisy != null) {
      ids.add(noisy.id()); // started last, at the phase's start: the first fault may come first
    }
    for (String id : ids) {
      Path workerLog = site.workerLog(id);
      while (System.nanoTime() < until && !started(workerLog)) {
        Thread.sleep(50); // polling the worker's log
      }
    }
  }

  private static boolean started(Path workerLog) {
    try {
      return Files.exists(workerLog) && Files.readString(workerLog).contains("\"ev\":\"start\"");
    } catch (IOException e) {
      return false;
    }
  }
}
