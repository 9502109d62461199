package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Guesses, before a save's transaction begins, whether it will keep the generation (a renewal or a
 * release, which may commit at {@code NORMAL}) or raise it (which must commit at {@code FULL}).
 *
 * <p>The guess is needed because SQLite refuses to change {@code synchronous} inside a transaction,
 * and only the transaction can read the stored generation. It is only a guess: the transaction
 * checks it against the stored record and, if a {@code NORMAL} guess meets a generation raise,
 * rolls back before writing and runs again at {@code FULL}. A wrong guess costs time, never
 * durability.
 *
 * <p>A release writes a tombstone, which no acquisition does, so it is guessed {@code NORMAL}. A
 * renewal writes the generation this repository last saved for the key as held; this table
 * remembers that generation for keys held through this repository only (an entry goes when the key
 * is released or a save of it conflicts), so it stays as small as the number of leases held.
 * Thread-safe.
 */
final class SyncPredictor {

  /** A bound against leases lost without a release or conflict ever reaching this repository. */
  private static final int MAX_REMEMBERED = 4096;

  private final boolean syncEveryWrite;
  private final ConcurrentMap<String, Long> heldGenerations = new ConcurrentHashMap<>();

  SyncPredictor(boolean syncEveryWrite) {
    this.syncEveryWrite = syncEveryWrite;
  }

  SyncMode predict(String key, LeaseSnapshot next) {
    if (syncEveryWrite) {
      return SyncMode.FULL;
    }
    if (!next.isHeld()) {
      return SyncMode.NORMAL;
    }
    Long held = heldGenerations.get(key);
    return held != null && held == next.generation() ? SyncMode.NORMAL : SyncMode.FULL;
  }

  void saved(String key, LeaseSnapshot written) {
    if (!written.isHeld()) {
      heldGenerations.remove(key);
      return;
    }
    if (heldGenerations.size() >= MAX_REMEMBERED && !heldGenerations.containsKey(key)) {
      heldGenerations.clear(); // only the guesses are lost; the next renewals re-learn them
    }
    heldGenerations.put(key, written.generation());
  }

  void forget(String key) {
    heldGenerations.remove(key);
  }
}
