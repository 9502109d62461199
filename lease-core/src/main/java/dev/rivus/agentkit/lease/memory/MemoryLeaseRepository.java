/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.memory;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.KeyWatches;
import dev.rivus.agentkit.lease.support.KeyedLocks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A repository in this process's memory: leases shared by the managers of one JVM, gone when it
 * exits. Saves compare revisions atomically; the key lock is a fair per-key lock that cannot be
 * lost; a key's watch wakes on its release at once.
 *
 * <p>Pruning keeps two floors for the whole repository, the highest generation and the highest
 * revision it ever pruned; a key with no record loads as a floor snapshot carrying them, so its
 * next record has a higher generation and a revision no earlier reader can have seen.
 *
 * <p>Thread-safe.
 */
public final class MemoryLeaseRepository implements PrunableLeaseRepository {

  private final ConcurrentMap<String, LeaseSnapshot> records = new ConcurrentHashMap<>();
  private final KeyedLocks<String> keyLocks = new KeyedLocks<>();
  private final KeyWatches watches = new KeyWatches();
  private final Clock clock;
  private Floors floors = Floors.NONE; // guarded by this, read without it (immutable, volatile)

  /** Creates an empty repository whose pruning reads the system clock. */
  public MemoryLeaseRepository() {
    this(Clock.systemUTC());
  }

  /**
   * Creates an empty repository whose pruning judges the age of tombstones by {@code clock}.
   *
   * @param clock the wall clock {@link #prune(Duration)} compares tombstones' times with
   * @throws NullPointerException if {@code clock} is null
   */
  public MemoryLeaseRepository(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    LeaseSnapshot stored = records.get(LeaseKeys.requireValid(key));
    return stored != null ? Optional.of(stored) : currentFloors().floorOf(key);
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return List.copyOf(records.values());
  }

  @Override
  public void save(LeaseWrite write) {
    Objects.requireNonNull(write, "write");
    String key = write.key();
    records.compute(
        key,
        (k, stored) -> {
          LeaseSnapshot current =
              stored != null ? stored : currentFloors().floorOf(key).orElse(null);
          long actual = current != null ? current.revision() : 0;
          if (actual != write.expectedRevision()
              || (current != null && !write.mayReplace(current))) {
            throw new RevisionConflict(key, write.expectedRevision(), actual);
          }
          return write.snapshot();
        });
    if (write.intent() == LeaseWrite.Intent.RELEASE) {
      watches.wake(key);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A watch of this repository wakes on every release saved through it, and on the prune of the
   * key's tombstone; a memory store has no other writers.
   */
  @Override
  public Optional<KeyWatch> watchKey(String key) {
    return Optional.of(watches.open(LeaseKeys.requireValid(key)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Removes, one by one and each atomically, the tombstones whose {@code updatedAt} is at least
   * {@code olderThan} before the clock's now, raising the floors first.
   */
  @Override
  public int prune(Duration olderThan) {
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must be zero or positive, was " + olderThan);
    }
    Instant now = clock.instant();
    int pruned = 0;
    for (LeaseSnapshot candidate : records.values()) {
      if (candidate.state() != LeaseState.RELEASED
          || Duration.between(candidate.updatedAt(), now).compareTo(olderThan) < 0) {
        continue;
      }
      boolean[] removed = {false};
      // Under the key's compute, so no save slips between the floors and the removal.
      records.computeIfPresent(
          candidate.key(),
          (key, stored) -> {
            if (!stored.equals(candidate)) {
              return stored; // written meanwhile: judged again at the next prune
            }
            raiseFloors(stored, now);
            removed[0] = true;
            return null;
          });
      if (removed[0]) {
        watches.wake(candidate.key());
        pruned++;
      }
    }
    return pruned;
  }

  private synchronized void raiseFloors(LeaseSnapshot pruned, Instant now) {
    floors =
        new Floors(
            Math.max(floors.generation, pruned.generation()),
            Math.max(floors.revision, pruned.revision()),
            now);
  }

  private synchronized Floors currentFloors() {
    return floors;
  }

  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    KeyedLocks.Held held = keyLocks.lock(LeaseKeys.requireValid(key));
    return new KeyLock() {
      @Override
      public boolean isHeld() {
        return held.isHeld();
      }

      @Override
      public void close() {
        held.close();
      }
    };
  }

  @Override
  public String toString() {
    return "MemoryLeaseRepository[" + records.size() + " records]";
  }

  /** The highest generation and revision ever pruned, and when the last was. */
  private static final class Floors {
    static final Floors NONE = new Floors(0, 0, Instant.EPOCH);

    final long generation;
    final long revision;
    final Instant raisedAt;

    Floors(long generation, long revision, Instant raisedAt) {
      this.generation = generation;
      this.revision = revision;
      this.raisedAt = raisedAt;
    }

    Optional<LeaseSnapshot> floorOf(String key) {
      return revision == 0
          ? Optional.empty()
          : Optional.of(LeaseSnapshot.floor(key, generation, revision, raisedAt));
    }
  }
}
