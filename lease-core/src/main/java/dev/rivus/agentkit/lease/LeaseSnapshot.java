package dev.rivus.agentkit.lease;

import java.time.Instant;

/**
 * One stored revision of a lease record, as a repository loads and saves it. Immutable.
 *
 * <p>{@code generation} is the fencing token: it rises by one on every acquisition and never goes
 * back. {@code revision} rises by one on every write (acquisition, renewal, release) and is what
 * {@link LeaseRepository#save} compares. {@code updatedAt} is the writer's wall-clock time, kept
 * for people to read; expiry is never decided from it.
 *
 * @param key the lease key
 * @param generation the fencing token of the current or last holder; {@code 0} only for a floor
 *     left by pruning
 * @param revision the revision of this record; {@code 0} only for a floor left by pruning (no
 *     record)
 * @param state held, or released (a tombstone)
 * @param holder the current holder, or for a tombstone the last one
 * @param updatedAt the writer's wall-clock time of this revision, informational only
 */
public record LeaseSnapshot(
    String key,
    long generation,
    long revision,
    LeaseState state,
    HolderIdentity holder,
    Instant updatedAt) {

  /**
   * Validates the components.
   *
   * @param key see the class description
   * @param generation see the class description
   * @param revision see the class description
   * @param state see the class description
   * @param holder see the class description
   * @param updatedAt see the class description
   * @throws IllegalArgumentException if a component is null or a number is negative
   */
  public LeaseSnapshot {
    LeaseKeys.requireValid(key);
    if (generation < 0) {
      throw new IllegalArgumentException("generation must not be negative, was " + generation);
    }
    if (revision < 0) {
      throw new IllegalArgumentException("revision must not be negative, was " + revision);
    }
    if (state == null || holder == null || updatedAt == null) {
      throw new IllegalArgumentException("state, holder and updatedAt must not be null");
    }
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
   * Returns the next revision of this record with the same generation and holder: a renewal.
   *
   * @param now the writer's wall-clock time
   * @return the renewed snapshot, one revision higher
   */
  public LeaseSnapshot renewed(Instant now) {
    return new LeaseSnapshot(key, generation, revision + 1, state, holder, now);
  }

  /**
   * Returns the next revision of this record marked released: the tombstone.
   *
   * @param now the writer's wall-clock time
   * @return the tombstone, one revision higher, with the same generation
   */
  public LeaseSnapshot released(Instant now) {
    return new LeaseSnapshot(key, generation, revision + 1, LeaseState.RELEASED, holder, now);
  }

  /**
   * Returns the record that a new acquisition writes over this one: generation and revision one
   * higher.
   *
   * @param newHolder the acquiring holder
   * @param now the writer's wall-clock time
   * @return the acquired snapshot
   */
  public LeaseSnapshot acquiredBy(HolderIdentity newHolder, Instant now) {
    return new LeaseSnapshot(key, generation + 1, revision + 1, LeaseState.HELD, newHolder, now);
  }

  /**
   * Returns the first record of a key never stored before: generation 1, revision 1.
   *
   * @param key the lease key
   * @param holder the acquiring holder
   * @param now the writer's wall-clock time
   * @return the first snapshot of the key
   */
  public static LeaseSnapshot first(String key, HolderIdentity holder, Instant now) {
    return new LeaseSnapshot(key, 1, 1, LeaseState.HELD, holder, now);
  }
}
