/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One stored revision of a lease record, as a repository loads and saves it. Immutable.
 *
 * <p>{@code generation} is the fencing token: it rises on every acquisition, to the greater of one
 * more and the wall clock in microseconds, and never goes back. {@code revision} rises on every
 * write (acquisition, renewal, release) and is what {@link LeaseRepository#save} compares; it never
 * repeats for a key, also across pruning. {@code ttl} is the TTL its holder promised, as a
 * duration: an observer waits for the longer of its own TTL and this one, counted on its own
 * monotonic clock. {@code updatedAt} is the writer's wall-clock time, kept for people to read;
 * expiry is never decided from it.
 *
 * <p>A record's writes are made from it: {@link #renewal}, {@link #release}, {@link #acquisition},
 * and {@link #firstAcquisition} for a key that has no record.
 *
 * @param key the lease key
 * @param generation the fencing token of the current or last holder
 * @param revision the revision of this record, at least 1
 * @param state held, released (a tombstone), or pruned (a floor, see {@link #floor})
 * @param holder the current holder, or for a tombstone the last one
 * @param ttl the TTL the holder promised to renew within; a record written before TTLs were
 *     recorded is read with {@link LeaseConfig#MAX_DURATION}, the longest any holder could have
 *     promised
 * @param updatedAt the writer's wall-clock time of this revision, informational only
 */
public record LeaseSnapshot(
    String key,
    long generation,
    long revision,
    LeaseState state,
    HolderIdentity holder,
    Duration ttl,
    Instant updatedAt) {

  /**
   * The holder named by a floor: the real last holder was pruned with its record. A floor is not
   * held, so no one judges this holder's liveness.
   */
  private static final HolderIdentity PRUNED_HOLDER =
      new HolderIdentity(new ProcessIdentity("(pruned)", null, null, 1, null), "(pruned)");

  /**
   * Validates the components.
   *
   * @param key see the class description
   * @param generation see the class description
   * @param revision see the class description
   * @param state see the class description
   * @param holder see the class description
   * @param ttl see the class description
   * @param updatedAt see the class description
   * @throws IllegalArgumentException if the key is invalid, a number is not positive, or the TTL is
   *     not positive
   * @throws NullPointerException if a component is null
   */
  public LeaseSnapshot {
    LeaseKeys.requireValid(key);
    if (generation < 1) {
      throw new IllegalArgumentException("generation must be positive, was " + generation);
    }
    if (revision < 1) {
      throw new IllegalArgumentException("revision must be positive, was " + revision);
    }
    java.util.Objects.requireNonNull(state, "state");
    java.util.Objects.requireNonNull(holder, "holder");
    java.util.Objects.requireNonNull(ttl, "ttl");
    java.util.Objects.requireNonNull(updatedAt, "updatedAt");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive, was " + ttl);
    }
  }

  /**
   * Returns the floor a repository loads for a key whose tombstone it pruned: no record, only the
   * generation and revision that the key's next record must exceed. An acquisition is written over
   * it with {@link #acquisition}, expecting its revision.
   *
   * @param key the lease key
   * @param generation the highest generation the key may have had
   * @param revision the highest revision the key may have had
   * @param prunedAt when the floor was last raised, informational only
   * @return the floor, in state {@link LeaseState#PRUNED}
   */
  public static LeaseSnapshot floor(String key, long generation, long revision, Instant prunedAt) {
    return new LeaseSnapshot(
        key,
        generation,
        revision,
        LeaseState.PRUNED,
        PRUNED_HOLDER,
        LeaseConfig.MAX_DURATION,
        prunedAt);
  }

  /**
   * Tells whether the record says the key is held.
   *
   * @return {@code true} for {@link LeaseState#HELD}
   */
  public boolean isHeld() {
    return state == LeaseState.HELD;
  }

  /**
   * Tells whether this is a floor left by pruning rather than a record.
   *
   * @return {@code true} for {@link LeaseState#PRUNED}
   */
  public boolean isFloor() {
    return state == LeaseState.PRUNED;
  }

  /**
   * Returns the renewal of this held record: the next revision, same generation, holder and TTL.
   *
   * @param now the writer's wall-clock time
   * @return the write, expecting this revision
   * @throws IllegalStateException if the record is not held
   */
  public LeaseWrite renewal(Instant now) {
    requireHeld("renewed");
    return new LeaseWrite(
        LeaseWrite.Intent.RENEW,
        new LeaseSnapshot(key, generation, revision + 1, state, holder, ttl, now),
        revision);
  }

  /**
   * Returns the release of this held record: the tombstone, one revision higher, with the same
   * generation, so the next holder gets a higher one.
   *
   * @param now the writer's wall-clock time
   * @return the write, expecting this revision
   * @throws IllegalStateException if the record is not held
   */
  public LeaseWrite release(Instant now) {
    requireHeld("released");
    return new LeaseWrite(
        LeaseWrite.Intent.RELEASE,
        new LeaseSnapshot(key, generation, revision + 1, LeaseState.RELEASED, holder, ttl, now),
        revision);
  }

  /**
   * Returns the acquisition written over this record (held by a holder taken over, released, or a
   * floor): revision one higher, and generation {@code max(generation + 1, wall clock in
   * microseconds)}, so that it also stays above the generations of a store that was lost, renamed,
   * replaced or restored from an old copy since (see {@link #firstGeneration(Instant)}), unless the
   * wall clock was set back as well.
   *
   * @param newHolder the acquiring holder
   * @param newTtl the TTL the acquiring holder promises
   * @param now the writer's wall-clock time
   * @return the write, expecting this revision
   */
  public LeaseWrite acquisition(HolderIdentity newHolder, Duration newTtl, Instant now) {
    return new LeaseWrite(
        LeaseWrite.Intent.ACQUIRE,
        new LeaseSnapshot(
            key,
            Math.max(generation + 1, firstGeneration(now)),
            revision + 1,
            LeaseState.HELD,
            newHolder,
            newTtl,
            now),
        revision);
  }

  /**
   * Returns the acquisition of a key that has no record: revision 1 and the generation {@link
   * #firstGeneration(Instant)} gives, expecting no record (revision 0).
   *
   * @param key the lease key
   * @param holder the acquiring holder
   * @param ttl the TTL the holder promises
   * @param now the writer's wall-clock time
   * @return the write
   */
  public static LeaseWrite firstAcquisition(
      String key, HolderIdentity holder, Duration ttl, Instant now) {
    return new LeaseWrite(
        LeaseWrite.Intent.ACQUIRE,
        new LeaseSnapshot(key, firstGeneration(now), 1, LeaseState.HELD, holder, ttl, now),
        0);
  }

  /**
   * The generation of a key's first record, and the least of every later one: the wall clock in
   * microseconds since the epoch. Every acquisition takes at least this, so a key whose record was
   * lost with its store (a database deleted, renamed without its write-ahead log, replaced, or
   * restored from an old copy) goes on above every generation it was given before, as long as the
   * wall clock was not set back (nor ahead when those were given). Microseconds keep the number
   * exact in a JavaScript number until the year 2255.
   *
   * @param now the writer's wall-clock time
   * @return the first generation, at least 1
   */
  public static long firstGeneration(Instant now) {
    long micros;
    try {
      micros = ChronoUnit.MICROS.between(Instant.EPOCH, now);
    } catch (ArithmeticException farFuture) {
      micros = Long.MAX_VALUE / 2;
    }
    return Math.max(1, micros);
  }

  private void requireHeld(String verb) {
    if (!isHeld()) {
      throw new IllegalStateException(
          "lease '"
              + key
              + "' is "
              + state.name().toLowerCase(java.util.Locale.ROOT)
              + ", so it cannot be "
              + verb);
    }
  }
}
