/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.driver.PhaseRunner;
import dev.rivus.agentkit.lease.safety.faults.DatabaseFaults;
import dev.rivus.agentkit.lease.safety.store.DatabasePhase;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A worker that is the {@code lease} command, on every repository but the negative control's: a
 * driver thread runs, one after another, {@code lease run} ({@link LeaseRunCommand}) on a random
 * key of the phase, with a random {@code --wait} and pipeline, and logs each run as a worker life
 * {@code r<slot>.<run>} in {@code worker-r<slot>.jsonl} ({@link LeaseRunProcess}). Its faults are
 * {@link LeaseRunFaults}'; the storage faults pause it while they replace the store, and a database
 * phase's faults end its sessions and cut its network ({@link DatabaseFaults}).
 *
 * <p>Thread-safe: the fault loop and the run thread meet on this object's monitor.
 */
public final class LeaseRunSlot implements AutoCloseable {

  /** The fault kinds, by their name in the driver's log. */
  public static final List<String> KINDS = List.of("run_kill", "run_stop", "run_stderr");

  private final int slot;
  private final LeaseRunCommand command;
  private final Random random;
  private final JsonLines log;
  private final JsonLines driverLog;
  private final LeaseRunFaults faults;
  private final Thread thread;
  private int run;
  private boolean closing; // guarded by this
  private boolean paused; // guarded by this
  private boolean lengthen; // guarded by this: the next run's command outlives the TTL
  private @Nullable LeaseRunProcess current; // guarded by this

  /**
   * A slot, not started yet. On a database, the phase's {@code jdbc.properties} must name its proxy
   * ({@code url.r<slot>}, written by {@link DatabasePhase}).
   *
   * @param slot the slot's number, after the library workers'
   * @param store the phase's repository
   * @param phaseDir the phase's directory (its store, its logs)
   * @param port the protected resource's port
   * @param seed the phase's seed
   * @param driverLog the driver's log
   */
  public LeaseRunSlot(
      int slot, StoreKind store, Path phaseDir, int port, long seed, JsonLines driverLog) {
    this.slot = slot;
    this.command = LeaseRunCommand.of(store, phaseDir, name(slot), port);
    this.random = new Random(seed * 31 + slot);
    this.log = JsonLines.append(phaseDir.resolve("worker-r" + slot + ".jsonl"));
    this.driverLog = driverLog;
    this.faults = new LeaseRunFaults(this, random, log, driverLog);
    this.thread = new Thread(this::loop, "lease-run-r" + slot);
    thread.setDaemon(true);
  }

  /**
   * Names a slot.
   *
   * @param slot the slot's number
   * @return {@code r<slot>}
   */
  public static String name(int slot) {
    return "r" + slot;
  }

  /** Starts the slot's thread, which runs one {@code lease run} after another until closed. */
  public void start() {
    thread.start();
  }

  private void loop() {
    try {
      while (true) {
        synchronized (this) {
          while (paused && !closing) {
            wait();
          }
          if (closing) {
            return;
          }
        }
        once();
        Thread.sleep(50 + random.nextInt(250)); // pacing between runs
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void once() throws InterruptedException {
    run++;
    String id = name(slot) + "." + run;
    String key = PhaseRunner.KEYS.get(random.nextInt(PhaseRunner.KEYS.size()));
    String wait = random.nextInt(4) == 0 ? "0s" : 200 + random.nextInt(2500) + "ms";
    boolean slow = random.nextInt(4) == 0;
    String sleep = slow ? "0." + (3 + random.nextInt(6)) : "0.0" + (1 + random.nextInt(9));
    int steps = 1 + random.nextInt(3);
    boolean outlivesTtl;
    synchronized (this) {
      outlivesTtl = lengthen;
      lengthen = false;
    }
    if (outlivesTtl) {
      // Asked for by a database fault (awaitLongHolder): a command of 3-4.5 s, which outlives the
      // TTL and so needs renewals while it runs, on a key it waits for long enough to get.
      wait = "3s";
      steps = 3;
      sleep = "1." + random.nextInt(6);
    }
    LeaseRunProcess started =
        LeaseRunProcess.start(
            command, id, key, outlivesTtl, command.builder(id, key, wait, sleep, steps), log);
    if (started == null) {
      return;
    }
    synchronized (this) {
      current = started;
    }
    try {
      started.awaitEnd(this::wake);
    } finally {
      synchronized (this) {
        current = null;
        notifyAll();
      }
    }
  }

  private synchronized void wake() {
    notifyAll();
  }

  /**
   * Waits up to 3 s for a run that holds its lease (then up to 300 ms more: mid-section), and
   * returns the current run, holding or not; {@code null} if none is under way.
   */
  synchronized @Nullable LeaseRunProcess awaitHolder() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while ((current == null || !current.holds()) && System.nanoTime() < until) {
      wait(100);
    }
    return current;
  }

  /**
   * Asks for a run whose command outlives the TTL, and waits up to 10 s for it to hold its lease;
   * returns it, else (none in time) the current run as {@link #awaitHolder()} does. For the
   * database faults: a cut or a session ended while such a command runs must cost renewals, not
   * just the release after a short command.
   *
   * @return the run, or {@code null} if none is under way
   * @throws InterruptedException if interrupted
   */
  public synchronized @Nullable LeaseRunProcess awaitLongHolder() throws InterruptedException {
    lengthen = true;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while ((current == null || !current.holds() || !current.outlivesTtl())
        && System.nanoTime() < until) {
      wait(100);
    }
    if (current != null && current.holds() && current.outlivesTtl()) {
      return current;
    }
    lengthen = false;
    return awaitHolder();
  }

  /**
   * {@code kill -9} of the run under way.
   *
   * @return whether one was
   * @throws InterruptedException if interrupted
   */
  public boolean kill() throws InterruptedException {
    return faults.kill();
  }

  /**
   * {@code SIGSTOP} of the run under way for {@code stopFor}.
   *
   * @param stopFor how long it stays stopped
   * @return whether one was
   * @throws InterruptedException if interrupted
   */
  public boolean stop(Duration stopFor) throws InterruptedException {
    return faults.stop(stopFor);
  }

  /**
   * The run under way's stderr left unread for {@code hold}.
   *
   * @param hold how long
   * @return whether one was
   * @throws InterruptedException if interrupted
   */
  public boolean blockStderr(Duration hold) throws InterruptedException {
    return faults.blockStderr(hold);
  }

  /** No new run starts until {@link #resume()}; the one under way goes on. */
  public synchronized void pause() {
    paused = true;
  }

  /** Runs start again, after {@link #pause()}. */
  public synchronized void resume() {
    paused = false;
    notifyAll();
  }

  /**
   * Waits until no run is under way (after {@link #pause()}).
   *
   * @param patience how long at most
   * @throws InterruptedException if interrupted
   */
  public synchronized void awaitIdle(Duration patience) throws InterruptedException {
    long until = System.nanoTime() + patience.toNanos();
    while (current != null && System.nanoTime() < until) {
      wait(100);
    }
  }

  /** Lets the current run finish, then ends the loop. */
  @Override
  public void close() {
    synchronized (this) {
      if (closing && !thread.isAlive()) {
        return;
      }
      closing = true;
      notifyAll();
    }
    try {
      thread.join(40_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LeaseRunProcess left;
    synchronized (this) {
      left = current;
    }
    if (left != null) {
      left.kill();
      Map<String, Object> line = left.fault("exit_hang");
      line.put("detail", "lease run did not end within 40 s of the phase's end");
      driverLog.write(line);
    }
  }
}
