/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.micrometer;

import dev.rivus.agentkit.lease.FencedWorkEnded;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.RenewalRound;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The metrics of one or more lease managers: a {@link LeaseListener} to give to {@link
 * dev.rivus.agentkit.lease.LeaseManagerBuilder#listener(LeaseListener)}, and a {@link MeterBinder}
 * to bind to the application's registries (Spring Boot binds every {@code MeterBinder} bean).
 *
 * <p>Meters, each tagged {@code manager} with the manager's name:
 *
 * <ul>
 *   <li>{@code lease.acquisitions} (counter), tag {@code outcome}: {@code new}, {@code
 *       after_release}, {@code dead_holder}, {@code ttl_takeover}, or {@code held_by_another} (a
 *       look that found another live holder; a waiting acquisition counts each look);
 *   <li>{@code lease.losses} (counter), tag {@code reason}: the {@link
 *       dev.rivus.agentkit.lease.LeaseLost.Reason} in lower case;
 *   <li>{@code lease.renewal.round} (timer): each renewal round, from its start to its outcomes;
 *   <li>{@code lease.renewal.failures} (counter): renewals that failed and are tried again;
 *   <li>{@code lease.renewal.late} (counter): rounds that ran so late that their leases came near
 *       their deadline;
 *   <li>{@code lease.held} (gauge): the leases held now;
 *   <li>{@code lease.fenced.work} (timer), tag {@code outcome}: {@code completed}, {@code failed}
 *       or {@code lost}.
 * </ul>
 *
 * <p>No meter is tagged by key unless asked for with {@link #withKeyTags(int)}: keys are often
 * unbounded (one per customer or per job run), and each distinct tag value is a time series kept
 * for ever. With key tags, the first {@code limit} distinct keys get a {@code key} tag of their own
 * on the acquisition, loss and fenced-work meters, and every later key shares the value {@value
 * #OTHER_KEYS}.
 *
 * <p>Events that come before the first registry is bound are counted into the {@code lease.held}
 * gauge but into no counter. Thread-safe: a manager calls its listener on one thread, and several
 * managers may share one instance.
 */
public final class LeaseMetrics implements LeaseListener, MeterBinder {

  /** The {@code key} tag's value shared by the keys beyond the limit of {@link #withKeyTags}. */
  public static final String OTHER_KEYS = "_other";

  private final int keyTagLimit;
  private final Set<String> taggedKeys = ConcurrentHashMap.newKeySet();
  private final List<MeterRegistry> registries = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> held = new ConcurrentHashMap<>();

  private LeaseMetrics(int keyTagLimit) {
    this.keyTagLimit = keyTagLimit;
  }

  /**
   * Returns metrics with no {@code key} tag.
   *
   * @return new metrics, bound to no registry yet
   */
  public static LeaseMetrics create() {
    return new LeaseMetrics(0);
  }

  /**
   * Returns metrics that tag the acquisition, loss and fenced-work meters with the key, for the
   * first {@code limit} distinct keys; later keys share the tag value {@value #OTHER_KEYS}.
   *
   * @param limit how many distinct keys get a tag of their own, at least 1
   * @return new metrics, bound to no registry yet
   * @throws IllegalArgumentException if {@code limit} is less than 1
   */
  public static LeaseMetrics withKeyTags(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("a key tag limit must be at least 1, got " + limit);
    }
    return new LeaseMetrics(limit);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    registries.add(registry);
    held.keySet().forEach(manager -> heldGauge(registry, manager));
  }

  @Override
  public void acquired(LeaseEvent.Acquired event) {
    heldCount(event.manager()).incrementAndGet();
    count(
        "lease.acquisitions",
        "acquisitions, by how they went",
        keyed(event, "outcome", event.how().name().toLowerCase(Locale.ROOT)));
  }

  @Override
  public void heldByAnother(LeaseEvent.HeldByAnother event) {
    count(
        "lease.acquisitions",
        "acquisitions, by how they went",
        keyed(event, "outcome", "held_by_another"));
  }

  @Override
  public void renewalFailed(LeaseEvent.RenewalFailed event) {
    count(
        "lease.renewal.failures",
        "renewals that failed and are tried again",
        Tags.of("manager", event.manager()));
  }

  @Override
  public void renewalLate(LeaseEvent.RenewalLate event) {
    count(
        "lease.renewal.late", "renewal rounds that ran late", Tags.of("manager", event.manager()));
  }

  @Override
  public void lost(LeaseEvent.Lost event) {
    heldCount(event.manager()).decrementAndGet();
    count(
        "lease.losses",
        "leases lost while held, by reason",
        keyed(event, "reason", event.reason().name().toLowerCase(Locale.ROOT)));
  }

  @Override
  public void released(LeaseEvent.Released event) {
    heldCount(event.manager()).decrementAndGet();
  }

  @Override
  public void renewalRound(RenewalRound round) {
    time(
        "lease.renewal.round",
        "renewal rounds, from start to outcomes",
        Tags.of("manager", round.manager()),
        round.took());
  }

  @Override
  public void fencedWorkEnded(FencedWorkEnded ended) {
    Tags tags =
        Tags.of(
            "manager", ended.manager(), "outcome", ended.outcome().name().toLowerCase(Locale.ROOT));
    if (keyTagLimit > 0) {
      tags = tags.and("key", keyTag(ended.key()));
    }
    time("lease.fenced.work", "fenced work, by how it ended", tags, ended.took());
  }

  private Tags keyed(LeaseEvent event, String name, String value) {
    Tags tags = Tags.of("manager", event.manager(), name, value);
    return keyTagLimit > 0 ? tags.and("key", keyTag(event.key())) : tags;
  }

  private String keyTag(String key) {
    if (taggedKeys.contains(key)) {
      return key;
    }
    synchronized (taggedKeys) {
      if (taggedKeys.size() < keyTagLimit) {
        taggedKeys.add(key);
        return key;
      }
    }
    return OTHER_KEYS;
  }

  private void count(String name, String description, Tags tags) {
    for (MeterRegistry registry : registries) {
      Counter.builder(name).description(description).tags(tags).register(registry).increment();
    }
  }

  private void time(String name, String description, Tags tags, Duration took) {
    for (MeterRegistry registry : registries) {
      Timer.builder(name).description(description).tags(tags).register(registry).record(took);
    }
  }

  private AtomicInteger heldCount(String manager) {
    AtomicInteger count = held.get(manager);
    if (count != null) {
      return count;
    }
    AtomicInteger made = held.computeIfAbsent(manager, name -> new AtomicInteger());
    registries.forEach(registry -> heldGauge(registry, manager));
    return made;
  }

  private void heldGauge(MeterRegistry registry, String manager) {
    AtomicInteger count = held.get(manager);
    if (count != null) {
      Gauge.builder("lease.held", count, AtomicInteger::get)
          .description("leases held now")
          .tag("manager", manager)
          .register(registry);
    }
  }
}
