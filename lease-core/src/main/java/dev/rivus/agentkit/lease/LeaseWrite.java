/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Objects;

/**
 * One compare-and-set write of a lease record: the new record, the revision it must replace, and
 * what the write is. Immutable. Made by {@link LeaseSnapshot#renewal}, {@link
 * LeaseSnapshot#release}, {@link LeaseSnapshot#acquisition} and {@link
 * LeaseSnapshot#firstAcquisition}.
 *
 * <p>The intent lets an adapter choose durability without reading the stored record first: an
 * {@link Intent#ACQUIRE} raises the generation and must be durable before {@link
 * LeaseRepository#save} returns; a {@link Intent#RENEW} or {@link Intent#RELEASE} keeps the
 * generation, so losing it makes the record look older, never a generation go back. A store may
 * lose renewals only in a crash that also ends every holder that counted on them (a power cut of
 * the machine that holds both): a holder counts its lease from the start of its last confirmed
 * renewal, and an observer that never saw that revision from an older one, so a confirmed renewal
 * lost while its holder lives on (a database server that crashed alone) lets a successor in before
 * the holder stops. A store on another machine than its holders keeps every acquisition and renewal
 * it confirmed; it may lose releases, whose holder has stopped counting on the lease.
 *
 * @param intent what the write is
 * @param snapshot the record to write
 * @param expectedRevision the revision the stored record must have: {@code 0} for "no record", the
 *     floor's revision for a pruned key
 */
public record LeaseWrite(Intent intent, LeaseSnapshot snapshot, long expectedRevision) {

  /** What a write is. */
  public enum Intent {
    /**
     * A new holder: the generation rises (see {@link LeaseSnapshot#acquisition}). Durable before
     * {@code save} returns.
     */
    ACQUIRE,
    /**
     * The holder renews: next revision and time; same generation, state, holder and TTL, so an
     * adapter may write the revision and time alone (as {@link LeaseSnapshot#renewal} makes it).
     */
    RENEW,
    /** The holder (or an operator) releases: the tombstone, same generation. */
    RELEASE
  }

  /**
   * Validates the write.
   *
   * @param intent see the class description
   * @param snapshot see the class description
   * @param expectedRevision see the class description
   * @throws IllegalArgumentException if the record's state does not fit the intent (held for an
   *     acquisition or renewal, released for a release), the revision does not rise, or a renewal
   *     or release expects no record
   * @throws NullPointerException if the intent or the snapshot is null
   */
  public LeaseWrite {
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(snapshot, "snapshot");
    LeaseState wanted = intent == Intent.RELEASE ? LeaseState.RELEASED : LeaseState.HELD;
    if (snapshot.state() != wanted) {
      throw new IllegalArgumentException(
          "a write of intent "
              + intent
              + " writes a "
              + wanted
              + " record, not a "
              + snapshot.state()
              + " one (lease '"
              + snapshot.key()
              + "')");
    }
    if (expectedRevision < 0 || snapshot.revision() <= expectedRevision) {
      throw new IllegalArgumentException(
          "the record's revision "
              + snapshot.revision()
              + " must be higher than the expected revision "
              + expectedRevision
              + ", which must not be negative (lease '"
              + snapshot.key()
              + "')");
    }
    if (intent != Intent.ACQUIRE && expectedRevision == 0) {
      throw new IllegalArgumentException(
          "a write of intent "
              + intent
              + " replaces the holder's record, so it cannot expect no record (lease '"
              + snapshot.key()
              + "')");
    }
  }

  /**
   * Returns the key written.
   *
   * @return the snapshot's key
   */
  public String key() {
    return snapshot.key();
  }

  /**
   * Tells whether this write may replace {@code stored}, the record now stored under the expected
   * revision: a renewal or release only a record of its own generation, an acquisition only a
   * record of a lower generation. Revisions alone would do if they never repeated; this also holds
   * when a record was deleted by hand and created again from revision 1, where an old holder's
   * revision could match a newer holder's record. A repository calls it inside its comparison.
   *
   * @param stored the stored record (or floor) whose revision matched
   * @return {@code true} if the write may proceed; else it is a {@link RevisionConflict}
   */
  public boolean mayReplace(LeaseSnapshot stored) {
    return intent == Intent.ACQUIRE
        ? snapshot.generation() > stored.generation()
        : snapshot.generation() == stored.generation();
  }

  /**
   * Tells whether the write raises the generation, so it must be durable when {@code save} returns.
   *
   * @return {@code true} for {@link Intent#ACQUIRE}
   */
  public boolean raisesGeneration() {
    return intent == Intent.ACQUIRE;
  }
}
