/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseRepository;
import java.time.Duration;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Makes the manager of one {@code @Leased(ttl = ...)}: on the application's store, with its
 * listeners, named after the application's manager, with {@code lease.heartbeat} if that is valid
 * for the TTL (at most half of it) and else the builder's heartbeat, a quarter of the TTL. Called
 * by {@link dev.rivus.agentkit.lease.spring.LeaseManagers} under its lock; holds nothing mutable.
 */
final class TtlManagers implements Function<Duration, LeaseManager> {

  private final LeaseRepository repository;
  private final String name;
  private final @Nullable Duration heartbeat;
  private final @Nullable LeaseListener listener;

  TtlManagers(
      LeaseRepository repository,
      String name,
      @Nullable Duration heartbeat,
      @Nullable LeaseListener listener) {
    this.repository = repository;
    this.name = name;
    this.heartbeat = heartbeat;
    this.listener = listener;
  }

  @Override
  public LeaseManager apply(Duration ttl) {
    LeaseManagerBuilder builder =
        LeaseManager.builder(repository).ttl(ttl).name(ManagerNames.withTtl(name, ttl));
    if (heartbeat != null && heartbeat.multipliedBy(2).compareTo(ttl) <= 0) {
      builder.heartbeat(heartbeat);
    }
    if (listener != null) {
      builder.listener(listener);
    }
    return builder.build();
  }
}
