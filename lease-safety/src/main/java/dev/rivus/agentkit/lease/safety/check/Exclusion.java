/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.HashMap;
import java.util.Map;

/**
 * P3, one holder at a time: in the resource's order, a worker entered a key's fenced section while
 * another worker's section on that key was open. A section is open from its ENTER until its EXIT,
 * or until the driver's DEAD for a killed worker (sent while the worker was stopped, before the
 * kill, so that no successor could have entered before it). A holder stopped by SIGSTOP keeps its
 * key lock (on a database, until the server ends its silent session), so a successor, a library
 * worker or a {@code lease run} (whose command runs under the key lock too), enters only after it
 * woke and said EXIT.
 *
 * <p>Reported apart ({@link Logs#keyLockMayHaveEnded}): a successor that entered while a holder
 * whose key lock was lost (a database session ended or a server restarted under it, as the holder
 * said, {@code KEY_LOCK_LOST}, or as the driver's log shows: its sessions ended, its network cut
 * and healed, or it was cut off or stopped for as long as the server takes to end a silent key
 * lock's session, TTL + grace + 1 s; whatever the holder said of its lease) had not yet said EXIT.
 * The databases' fence is a lock of the holder's session, which can be lost; the library then ends
 * the work as a loss, but cannot stop a request already on its way, and only the token at the
 * resource (P2) protects it then. So is a successor that got its lease from a new store, after the
 * driver deleted or swapped the store with its key-lock files on purpose, while a holder of the old
 * store was still inside: the two key locks are two files then, and the old holder gives its lease
 * up only at its next renewal round, as docs/sqlite.md says ("Resetting a store").
 */
final class Exclusion {

  private Exclusion() {}

  static void check(Logs logs, Findings findings) {
    Map<String, Map<String, Long>> open = new HashMap<>();
    for (ResourceEntry e : logs.resource) {
      if (e.late()) {
        continue;
      }
      String worker = e.worker();
      switch (e.op()) {
        case "ENTER":
          Map<String, Long> inside = open.computeIfAbsent(e.key(), k -> new HashMap<>());
          inside.forEach(
              (other, token) -> {
                // A lease run's section is judged by P7 (LeaseRunOverlap): its killed tree says no
                // EXIT, and must only have stopped talking before a successor enters.
                if (!other.equals(worker) && !LeaseRunOverlap.isLeaseRun(other)) {
                  findings.report(
                      "P3",
                      logs.keyLockMayHaveEnded(other, e.key(), token, worker, e.token(), e.nanos()),
                      "seq "
                          + e.seq()
                          + ": "
                          + worker
                          + " (token "
                          + e.token()
                          + ") entered key "
                          + e.key()
                          + " while "
                          + other
                          + " (token "
                          + token
                          + ") was inside");
                }
              });
          inside.put(worker, e.token());
          break;
        case "EXIT":
          open.getOrDefault(e.key(), new HashMap<>()).remove(worker);
          break;
        case "DEAD":
          open.values().forEach(inside1 -> inside1.remove(worker));
          break;
        default:
          break;
      }
    }
  }
}
