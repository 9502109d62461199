/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Why a store on another machine than its holders must keep every renewal it confirmed: the holder
 * counts its lease from the start of its last confirmed renewal, but an observer that never saw
 * that revision counts from the older one. If the store then loses the renewal (a database that
 * crashed before flushing a commit it had confirmed, as PostgreSQL's {@code synchronous_commit =
 * off} allows) while the holder lives on, the observer's TTL ends first, and both hold the key. A
 * store on the holder's own machine may lose renewals in a power cut, which ends its holders too; a
 * database server can crash alone.
 */
class LostRenewalTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final FakePlatform holderHost = Samples.platformOf(100);
  private final FakePlatform observerHost = Samples.platformOf(200);
  private final CrashingStore store = new CrashingStore();

  @Test
  void aStoreThatLosesAConfirmedRenewalWhileItsHolderLivesLetsTwoHoldersOverlap() {
    observerHost.markRunning(holderHost.currentProcess()); // alive: taken over after the TTL only
    try (LeaseManager holder = holderHost.newManager(store, TTL, HEARTBEAT);
        LeaseManager observer = observerHost.newManager(store, TTL, HEARTBEAT)) {
      Lease lease = holder.acquire("task"); // t = 0, revision 1
      advance(Duration.ofMillis(2500)); // the holder renewed at t = 2: revision 2
      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      advance(Duration.ofMillis(1400)); // t = 3.9
      assertThatThrownBy(() -> observer.acquire("task")).isInstanceOf(LeaseHeld.class);
      LeaseSnapshot beforeTheLostRenewal = store.load("task").orElseThrow();

      advance(Duration.ofMillis(200)); // t = 4.1: the holder's renewal at t = 4 was confirmed
      assertThat(store.load("task").orElseThrow().revision())
          .isEqualTo(beforeTheLostRenewal.revision() + 1);
      store.crashLosing(beforeTheLostRenewal); // unflushed: revision 3 is gone, the store is down

      advance(Duration.ofMillis(8450)); // t = 12.55: the store is back
      store.recover();
      advance(Duration.ofMillis(50)); // t = 12.6
      try (Lease successor = observer.acquire("task")) {
        assertThat(successor.generation()).isGreaterThan(lease.generation());
        assertThat(lease.isHeld())
            .as(
                "the holder, whose last confirmed renewal started at t = 4, while a successor"
                    + " that saw revision %d first at t = 2.5 holds generation %d: two holders",
                beforeTheLostRenewal.revision(), successor.generation())
            .isTrue();
      }
    }
  }

  private void advance(Duration step) {
    Duration slice = Duration.ofMillis(50);
    for (Duration done = Duration.ZERO; done.compareTo(step) < 0; done = done.plus(slice)) {
      holderHost.advance(slice);
      observerHost.advance(slice);
    }
  }

  /** A store that can crash, losing the writes it confirmed after a given record, and come back. */
  private static final class CrashingStore extends ForwardingLeaseRepository {
    private volatile LeaseRepository current = new MemoryLeaseRepository();
    private volatile boolean down;

    CrashingStore() {
      super(new MemoryLeaseRepository());
    }

    void crashLosing(LeaseSnapshot survivor) {
      MemoryLeaseRepository recovered = new MemoryLeaseRepository();
      recovered.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, survivor, 0));
      current = recovered;
      down = true;
    }

    void recover() {
      down = false;
    }

    private LeaseRepository up(String key) {
      if (down) {
        throw new LeaseRepositoryFailure(key, "the database is restarting (test)", null);
      }
      return current;
    }

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return up(key).load(key);
    }

    @Override
    public void save(LeaseWrite write) {
      up(write.key()).save(write);
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      return up(null).saveAll(writes);
    }
  }
}
