/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * P7, a {@code lease run} command tree never runs beside a successor's: in the resource's order, no
 * request of a {@code lease run} worker ({@code r<slot>.<run>}) on a key comes after the ENTER of
 * the next other worker on that key (its successor: the first to enter after the lease run's own
 * ENTER, by the resource's order rather than by token, since a store lost on purpose may restart
 * tokens lower); and after a {@code kill -9} of the {@code lease} process no process of its tree is
 * left ({@code survivor} in the worker's log, from the driver's search of {@code /proc}). A {@code
 * lease} process stopped by SIGSTOP cannot stop its command, but it keeps the key lock under which
 * the command runs (on a database, until the server ends its silent session), so no successor
 * enters while the command talks on: that is judged too.
 *
 * <p>Reported apart ({@link Logs#keyLockMayHaveEnded}): a tree that talks on after its {@code
 * lease} lost its key lock ({@code KEY_LOCK_LOST}: the database session that held it ended, as its
 * stderr says, or as the driver's log does: a {@code db_kill} of its sessions, a {@code
 * db_restart}, a {@code db_cut} healed while it held, or a cut or a stop that lasted as long as the
 * server takes to end a silent key lock's session, which a {@code lease} stopped by SIGSTOP
 * meanwhile cannot even notice); the successor may then enter during the command's grace, and only
 * the token at the resource protects it (P2), as with a library holder's lost key lock (P3); and a
 * tree that talks on after the driver deleted or swapped the store with its key-lock files on
 * purpose, beside a successor that got its lease from the new store (P3 says why).
 */
final class LeaseRunOverlap {

  private LeaseRunOverlap() {}

  /** Whether a worker id names a {@code lease run} worker. */
  static boolean isLeaseRun(String worker) {
    return worker.startsWith("r");
  }

  static void check(Logs logs, Findings findings) {
    // Per key and lease run worker: the ENTER of the first other worker on that key after the lease
    // run's own first ENTER (its successor, judged by order, not by tokens: a store lost on purpose
    // may start tokens lower).
    Map<String, ResourceEntry> successor = new HashMap<>();
    Map<String, Set<String>> entered = new HashMap<>();
    for (ResourceEntry e : logs.resource) {
      String key = e.key();
      String worker = e.worker();
      if (e.op().equals("ENTER")) {
        Set<String> before = entered.computeIfAbsent(key, k -> new HashSet<>());
        for (String runner : before) {
          if (!runner.equals(worker)) {
            successor.putIfAbsent(runner + "/" + key, e);
          }
        }
        if (isLeaseRun(worker)) {
          before.add(worker);
        }
      }
      ResourceEntry next = successor.get(worker + "/" + key);
      if (isLeaseRun(worker) && next != null) {
        findings.report(
            "P7",
            // A lease run whose key lock may have ended: the successor may enter while its command
            // has its grace to stop, and only the token protects the resource then, as for a
            // library holder (Exclusion).
            logs.keyLockMayHaveEnded(
                worker, key, e.token(), next.worker(), next.token(), next.nanos()),
            "seq "
                + e.seq()
                + ": "
                + worker
                + " (token "
                + e.token()
                + ") said "
                + e.op()
                + " on key "
                + key
                + " after its successor "
                + next.worker()
                + " (token "
                + next.token()
                + ") entered at seq "
                + next.seq());
      }
    }
    for (WorkerEntry survivor : logs.workerEvents("survivor")) {
      findings.violation(
          "P7",
          survivor.worker()
              + ": processes "
              + survivor.pids()
              + " of its tree still ran "
              + survivor.ms()
              + " ms after its lease process was killed");
    }
  }
}
