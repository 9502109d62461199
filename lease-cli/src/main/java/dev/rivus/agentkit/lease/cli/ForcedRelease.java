/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.time.Clock;
import java.util.Optional;

/**
 * An operator's release of a stuck lease: writes the tombstone of generation {@code N} over the
 * record, only while the record is still at generation {@code N}. The generation is kept, so the
 * next holder gets {@code N + 1}; the old holder, if it still runs, finds the record changed at its
 * next renewal and loses the lease.
 */
final class ForcedRelease {

  /** Renewals of the holder move the revision; each one costs a re-read, a few are normal. */
  private static final int ATTEMPTS = 16;

  private final LeaseRepository repository;
  private final Clock wallClock;

  ForcedRelease(LeaseRepository repository, Clock wallClock) {
    this.repository = repository;
    this.wallClock = wallClock;
  }

  /**
   * Releases generation {@code generation} of {@code key}.
   *
   * @return the tombstone written, or empty if that generation was already released
   * @throws CliFailure with the refused code if there is no record or it is at another generation
   * @throws LeaseRepositoryFailure if the repository failed, or the record kept changing
   */
  Optional<LeaseSnapshot> release(String key, long generation) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      LeaseSnapshot current =
          repository
              .load(key)
              .filter(snapshot -> !snapshot.isFloor())
              .orElseThrow(
                  () ->
                      new CliFailure(
                          ExitCodes.REFUSED,
                          "lease '" + key + "' has no record; nothing released"));
      if (current.generation() != generation) {
        throw new CliFailure(
            ExitCodes.REFUSED,
            "lease '"
                + key
                + "' is at generation "
                + current.generation()
                + " ("
                + (current.isHeld() ? "held" : "released")
                + "), not "
                + generation
                + "; nothing released");
      }
      if (!current.isHeld()) {
        return Optional.empty();
      }
      LeaseWrite release = current.release(wallClock.instant());
      try {
        repository.save(release);
        return Optional.of(release.snapshot());
      } catch (RevisionConflict renewedMeanwhile) {
        // the holder renewed between our read and our write: read again, judge again
      }
    }
    throw new LeaseRepositoryFailure(
        key,
        "lease '" + key + "' changed " + ATTEMPTS + " times while releasing it; nothing released",
        null);
  }
}
