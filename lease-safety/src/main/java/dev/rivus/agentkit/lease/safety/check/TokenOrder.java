/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * P1, tokens only go up: per key, no token is granted twice, and an acquisition that returned
 * before another was called has the smaller token. Times are {@code System.nanoTime()}, which is
 * one monotonic clock for every process of a Linux machine. Where the driver deleted, replaced or
 * damaged the store on purpose after the first returned and before the second returned, the case is
 * reported apart: the new store starts without the old records, and {@link StoreLoss} says what the
 * library did. Before the second <em>returned</em>, not before it was called: a call under way may
 * open the store after the loss (a {@code lease run} whose JVM is starting), and a token below a
 * granted one can only come from the new store.
 */
final class TokenOrder {

  private TokenOrder() {}

  static void check(Logs logs, Findings findings) {
    Map<String, List<Acquisition>> byKey =
        logs.acquisitions.stream().collect(Collectors.groupingBy(Acquisition::key));
    byKey.forEach((key, acquisitions) -> checkKey(logs, key, acquisitions, findings));
  }

  private static void checkKey(
      Logs logs, String key, List<Acquisition> acquisitions, Findings findings) {
    Map<Long, Acquisition> granted = new HashMap<>();
    for (Acquisition a : acquisitions) {
      Acquisition before = granted.putIfAbsent(a.token(), a);
      if (before != null) {
        findings.report(
            "P1",
            logs.storeLostBetween(
                Math.min(before.okNanos(), a.okNanos()), Math.max(before.okNanos(), a.okNanos())),
            "key "
                + key
                + " token "
                + a.token()
                + " granted twice: "
                + before.worker()
                + " and "
                + a.worker());
      }
    }
    List<Acquisition> byReturn = new ArrayList<>(acquisitions);
    byReturn.sort(Comparator.comparingLong(Acquisition::okNanos));
    // The highest token among acquisitions that returned before each point, and whose it is.
    List<Acquisition> highestSoFar = new ArrayList<>();
    for (Acquisition a : byReturn) {
      Acquisition top = highestSoFar.isEmpty() ? a : highestSoFar.get(highestSoFar.size() - 1);
      highestSoFar.add(a.token() >= top.token() ? a : top);
    }
    for (Acquisition b : acquisitions) {
      int returnedBefore = countReturnedBefore(byReturn, b.startNanos());
      if (returnedBefore == 0) {
        continue;
      }
      Acquisition top = highestSoFar.get(returnedBefore - 1);
      if (top.token() >= b.token()) {
        findings.report(
            "P1",
            logs.storeLostBetween(top.okNanos(), b.okNanos()),
            "key "
                + key
                + ": "
                + b.worker()
                + " got token "
                + b.token()
                + " after "
                + top.worker()
                + " had been granted "
                + top.token());
      }
    }
  }

  /** How many acquisitions returned strictly before {@code nanos} (binary search). */
  private static int countReturnedBefore(List<Acquisition> byReturn, long nanos) {
    int low = 0;
    int high = byReturn.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (byReturn.get(mid).okNanos() < nanos) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
