/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The observer's memory stays bounded by what it watches. */
class ObservationsTest {

  private static final Duration TTL = Duration.ofSeconds(10);

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final Observations observations = new Observations(now::get, TTL);

  private static LeaseSnapshot held(String key, long revision) {
    HolderIdentity holder =
        new HolderIdentity(new ProcessIdentity("host", "boot", "pid:[1]", 7, "ticks:1"), "h-1");
    return LeaseSnapshot.firstAcquisition(key, holder, TTL, Instant.EPOCH)
        .snapshot()
        .renewal(Instant.EPOCH)
        .snapshot()
        .renewal(Instant.EPOCH.plusNanos(revision))
        .snapshot();
  }

  @Test
  void recordsObservedOnceAndNeverAgainAreForgottenAfterTheirTtl() {
    for (int i = 0; i < 10_000; i++) {
      observations.observe(held("key-" + i, 3), TTL);
    }
    assertThat(observations.size()).isEqualTo(10_000);

    now.addAndGet(TTL.plusMillis(1).toNanos());
    observations.observe(held("watched", 3), TTL);

    assertThat(observations.size()).as("observations kept").isEqualTo(1);
  }

  @Test
  void aRecordWatchedWithinItsTtlKeepsItsFirstSighting() {
    LeaseSnapshot record = held("watched", 3);
    observations.observe(record, TTL);
    for (int look = 0; look < 5; look++) {
      now.addAndGet(TTL.dividedBy(2).toNanos());
      observations.observe(held("other-" + look, 3), TTL); // sweeps run meanwhile
      assertThat(observations.observe(record, TTL))
          .as("unchanged for")
          .isEqualTo(TTL.dividedBy(2).multipliedBy(look + 1));
    }
  }

  @Test
  void aLongerTtlOfTheRecordKeepsItsObservationLonger() {
    Duration recordTtl = TTL.multipliedBy(6);
    observations.observe(held("long", 3), recordTtl);

    now.addAndGet(TTL.multipliedBy(5).toNanos());
    observations.observe(held("trigger", 3), TTL);

    assertThat(observations.observe(held("long", 3), recordTtl)).isEqualTo(TTL.multipliedBy(5));
  }
}
