/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads lease records for inspection and judges their holders from this process.
 *
 * <p>A one-shot reader has no history, so "observed unchanged" is honestly zero: the record was
 * first seen by this command just now. With an observation window, the records are read twice, the
 * window apart, on the monotonic clock; a record whose revision did not move is reported unchanged
 * for the window, and one that moved for zero.
 */
final class LeaseObserver {

  private final LeaseRepository repository;
  private final Ticker ticker;
  private final LivenessJudge livenessJudge;
  private final Duration window;

  LeaseObserver(
      LeaseRepository repository, Ticker ticker, LivenessJudge livenessJudge, Duration window) {
    this.repository = repository;
    this.ticker = ticker;
    this.livenessJudge = livenessJudge;
    this.window = window;
  }

  Optional<LeaseView> one(String key) throws InterruptedException {
    Optional<LeaseSnapshot> first = load(key);
    if (first.isEmpty() || window.isZero()) {
      return first.map(snapshot -> view(snapshot, Duration.ZERO));
    }
    ticker.sleep(window);
    return load(key).map(now -> view(now, unchangedSince(first.get(), now)));
  }

  /** A floor left by pruning is no record: the key is absent, as in a listing. */
  private Optional<LeaseSnapshot> load(String key) {
    return repository.load(key).filter(snapshot -> !snapshot.isFloor());
  }

  List<LeaseView> all() throws InterruptedException {
    List<LeaseSnapshot> now = repository.loadAll();
    Map<String, LeaseSnapshot> before = new HashMap<>();
    if (!window.isZero()) {
      now.forEach(snapshot -> before.put(snapshot.key(), snapshot));
      ticker.sleep(window);
      now = repository.loadAll();
    }
    List<LeaseView> views = new ArrayList<>();
    for (LeaseSnapshot snapshot : now) {
      LeaseSnapshot earlier = before.get(snapshot.key());
      views.add(
          view(snapshot, earlier == null ? Duration.ZERO : unchangedSince(earlier, snapshot)));
    }
    views.sort(Comparator.comparing(view -> view.snapshot().key()));
    return views;
  }

  private Duration unchangedSince(LeaseSnapshot earlier, LeaseSnapshot now) {
    boolean same = earlier.revision() == now.revision() && earlier.generation() == now.generation();
    return same ? window : Duration.ZERO;
  }

  private LeaseView view(LeaseSnapshot snapshot, Duration unchanged) {
    return new LeaseView(
        snapshot,
        snapshot.isHeld() ? livenessJudge.judge(snapshot.holder().process()) : null,
        unchanged);
  }
}
