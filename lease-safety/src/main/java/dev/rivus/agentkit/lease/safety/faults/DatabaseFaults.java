/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.store.DatabasePhase;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunProcess;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.WorkerSlot;
import dev.rivus.agentkit.lease.testsupport.PrivateServer;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The faults of a database phase, on one worker at a time: every session of its pool ended by the
 * server ({@code pg_terminate_backend}, MariaDB's {@code KILL}), found by the client ports of its
 * proxy; and its network to the server cut without closing anything (its proxy frozen) for a while,
 * then healed; the same two to the {@code lease run} process that holds its lease, through its
 * slot's proxy. Each goes to the driver's log ({@code db_kill} with the sessions, {@code db_cut}
 * with its length, then {@code heal}, named by the worker or run they hit); and on a private server
 * only, a restart of the server ({@code db_restart}, then {@code heal}).
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
public final class DatabaseFaults {

  private final DatabasePhase database;
  private final List<WorkerSlot> slots;
  private final JsonLines log;
  private final Duration cutFor;
  private final @Nullable PrivateServer server;

  DatabaseFaults(DatabasePhase database, List<WorkerSlot> slots, JsonLines log, Duration cutFor) {
    this(database, slots, log, cutFor, null);
  }

  /**
   * Faults that also restart {@code server}, the harness's own, never a shared one.
   *
   * @param database the phase's tables and proxies
   * @param slots the library workers, in the order of their proxies
   * @param log the driver's log
   * @param cutFor how long a network cut lasts
   * @param server the private server to restart, or {@code null} for a shared one
   */
  public DatabaseFaults(
      DatabasePhase database,
      List<WorkerSlot> slots,
      JsonLines log,
      Duration cutFor,
      @Nullable PrivateServer server) {
    this.server = server;
    this.database = database;
    this.slots = slots;
    this.log = log;
    this.cutFor = cutFor;
  }

  /** Ends every session of {@code victim}'s pool on the server. */
  void endSessions(WorkerSlot victim) {
    endSessions(slots.indexOf(victim), victim.fault("db_kill"));
  }

  /**
   * Ends every session of the {@code lease run} process that holds its lease now (waiting up to 3 s
   * for one), through its slot's proxy; the log line names the run. Returns whether it struck: not
   * when no run was under way.
   */
  boolean endSessions(LeaseRunSlot runs) throws InterruptedException {
    LeaseRunProcess victim = runs.awaitLongHolder();
    if (victim == null) {
      return false;
    }
    endSessions(database.leaseRunIndex(), victim.fault("db_kill"));
    return true;
  }

  private void endSessions(int proxy, Map<String, Object> line) {
    try {
      List<Long> sessions = database.endSessions(proxy);
      line.put("sessions", sessions);
    } catch (SQLException failed) {
      line.put("error", String.valueOf(failed.getMessage()));
    }
    log.write(line);
  }

  /** Whether {@link #restart} may be injected: only on a private server. */
  boolean canRestart() {
    return server != null;
  }

  /**
   * Stops the private server (every session ended: PostgreSQL's fast shutdown, MariaDB's normal
   * one), keeps it down for {@code down}, and starts it again; every worker meets it.
   */
  void restart(Duration down) throws InterruptedException {
    PrivateServer restarted = server;
    if (restarted == null) {
      return;
    }
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", "db_restart");
    line.put("w", "all");
    line.put("ms", down.toMillis());
    log.write(line);
    try {
      restarted.stop();
      Thread.sleep(down.toMillis()); // the fault itself: how long the server stays down
      restarted.start();
      Map<String, Object> up = JsonLines.fields("t", System.nanoTime());
      up.put("fault", "heal");
      up.put("w", "all");
      log.write(up);
    } catch (java.io.IOException failed) {
      Map<String, Object> broken = JsonLines.fields("t", System.nanoTime());
      broken.put("fault", "crash");
      broken.put("w", "server");
      broken.put("detail", "the private server did not restart: " + failed.getMessage());
      log.write(broken);
    }
  }

  /** Cuts {@code victim}'s network to the server for the cut's length, then heals it. */
  void cut(WorkerSlot victim) throws InterruptedException {
    cut(slots.indexOf(victim), victim::fault);
  }

  /**
   * Cuts the network of a {@code lease run} process that holds its lease, with a command that
   * outlives the TTL (asked for, and waited for up to 10 s), for the cut's length, then heals it;
   * the log lines name the run. Returns whether it struck: not when no run was under way.
   */
  boolean cut(LeaseRunSlot runs) throws InterruptedException {
    LeaseRunProcess victim = runs.awaitLongHolder();
    if (victim == null) {
      return false;
    }
    cut(database.leaseRunIndex(), victim::fault);
    return true;
  }

  private void cut(int index, Function<String, Map<String, Object>> fault)
      throws InterruptedException {
    TcpProxy proxy = database.proxy(index);
    proxy.freeze();
    Map<String, Object> line = fault.apply("db_cut");
    line.put("ms", cutFor.toMillis());
    log.write(line);
    try {
      Thread.sleep(cutFor.toMillis()); // the fault itself: how long the network stays cut
    } finally {
      proxy.thaw();
      log.write(fault.apply("heal"));
    }
  }
}
