/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The storage port of the lease library: where lease records live and how writers are kept apart.
 * Adapters: {@code MemoryLeaseRepository}, {@code FileLeaseRepository}, and the SQLite and JDBC
 * modules.
 *
 * <p>What every implementation promises, checked by the shared contract suite ({@code
 * LeaseRepositoryContract} in {@code lease-testkit}):
 *
 * <ul>
 *   <li><b>Compare and set.</b> A {@link #save} writes only over the revision it expects; two
 *       writers of one revision never both succeed, in one process or many.
 *   <li><b>Revisions never repeat</b> for a key, also across pruning: a writer whose read predates
 *       a prune can never match a record created after it.
 *   <li><b>Durability by intent.</b> A write that raises the generation ({@link
 *       LeaseWrite.Intent#ACQUIRE}) is durable before {@code save} returns.
 *   <li><b>Identity.</b> A repository knows its store by what the system says it is, not by its
 *       name: a store reached through another name (a symlink) is the same store with one key lock;
 *       a store deleted, replaced or emptied under the repository fails every later call with
 *       {@link StoreLost}, so its holders give their leases up at once.
 *   <li><b>Keys.</b> Keys are arbitrary strings (see {@link LeaseKeys}); an adapter never lets a
 *       key escape its storage.
 *   <li><b>Failures.</b> Expected failures are {@link RevisionConflict} and {@link
 *       LeaseRepositoryFailure} (with its subtype {@link StoreLost}); nothing else escapes for an
 *       expected condition.
 * </ul>
 *
 * <p>Implementations are safe to call from many threads at once.
 */
public interface LeaseRepository extends AutoCloseable {

  /**
   * Loads the stored record of a key.
   *
   * <p>A repository that pruned the key's tombstone returns a floor instead ({@link
   * LeaseSnapshot#isFloor()}): no record, only the generation and revision its next record must
   * exceed.
   *
   * @param key the lease key
   * @return the stored snapshot or floor, or empty when the key has no record and no floor
   * @throws StoreLost if the store is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the storage cannot be read or holds a corrupt record
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys}
   */
  Optional<LeaseSnapshot> load(String key);

  /**
   * Loads every stored record, for inspection ({@code lease list}, dashboards). Not for hot paths:
   * it reads the whole store. Floors left by pruning are not listed.
   *
   * @return every stored snapshot, in no particular order
   * @throws StoreLost if the store is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the storage cannot be read or holds a corrupt record
   */
  List<LeaseSnapshot> loadAll();

  /**
   * Loads the stored records of many keys, each as {@link #load} would: for {@link
   * LeaseManager#acquireAll}, which judges a batch of keys at once. Adapters that can read many
   * records in one query or transaction override this; the default loads one by one.
   *
   * @param keys the lease keys
   * @return the stored snapshot or floor of every key that has one; a key with neither is absent
   * @throws StoreLost if the store is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the storage cannot be read or holds a corrupt record
   * @throws NullPointerException if {@code keys} or a key is null
   * @throws IllegalArgumentException if a key breaks the rule of {@link LeaseKeys}
   */
  default Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    Map<String, LeaseSnapshot> stored = new HashMap<>();
    for (String key : keys) {
      load(key).ifPresent(snapshot -> stored.put(key, snapshot));
    }
    return stored;
  }

  /**
   * Writes {@code write.snapshot()} over the stored record only if that record's revision is {@code
   * write.expectedRevision()} ({@code 0} meaning "no record", a floor's revision meaning "the
   * pruned key"). The comparison and the write are one atomic step with respect to every other
   * writer of the same storage, in this process or another. A write that raises the generation is
   * durable when this method returns.
   *
   * @param write the record, the revision it replaces, and what the write is
   * @throws RevisionConflict if the stored revision is another one; nothing was written
   * @throws StoreLost if the store is no longer the one this repository opened; nothing was written
   * @throws LeaseRepositoryFailure if the storage cannot be written within the repository's budget;
   *     the write may or may not have landed (an answer can be lost)
   * @throws NullPointerException if {@code write} is null
   */
  void save(LeaseWrite write);

  /**
   * Saves a batch of writes, each compared and written as by {@link #save}, and tells what became
   * of each. The manager renews all the leases it holds with one call per heartbeat round. Adapters
   * that can write many records in one transaction or statement override this; the default saves
   * one by one. Each write succeeds or fails on its own: a conflict on one key never stops the
   * others.
   *
   * @param writes the writes, at most one per key (a second write of a key would conflict)
   * @return one outcome per write, in the order of {@code writes}
   * @throws StoreLost if the store is no longer the one this repository opened; nothing was written
   * @throws LeaseRepositoryFailure if the storage failed for the whole batch; any of the writes may
   *     or may not have landed
   */
  default List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    List<SaveOutcome> outcomes = new ArrayList<>(writes.size());
    for (LeaseWrite write : writes) {
      try {
        save(write);
        outcomes.add(SaveOutcome.saved(write));
      } catch (StoreLost lost) {
        throw lost; // every later write would meet the same store
      } catch (RevisionConflict | LeaseRepositoryFailure failure) {
        outcomes.add(SaveOutcome.failed(write, failure));
      }
    }
    return outcomes;
  }

  /**
   * Takes the key lock: a lock, distinct from whatever guards {@link #save}, that at most one
   * thread in all processes sharing this storage holds for a key at a time. Fenced work runs under
   * it, so a successor's fenced work starts only after its predecessor's ended. Waiting for it
   * never blocks a save, so holders keep renewing while others wait or work.
   *
   * <p>The wait ends early when the calling thread is interrupted. If the holding process dies, the
   * storage (or the operating system) releases the key lock. A key lock can also be lost while held
   * (a database lock dies with its connection): {@link KeyLock#isHeld()} then says so, and the
   * manager ends the fenced work as on the loss of the lease.
   *
   * @param key the lease key
   * @return the held key lock; close it to release, from any thread
   * @throws InterruptedException if the calling thread was interrupted while waiting
   * @throws StoreLost if the store is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the key lock cannot be taken for a reason other than
   *     contention
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys}
   */
  KeyLock lockKey(String key) throws InterruptedException;

  /**
   * Takes the key lock as {@link #lockKey(String)} does, and lets the storage end it by itself once
   * its holder has been silent for longer than {@code silenceLimit}: neither {@link
   * KeyLock#isHeld()} nor {@link KeyLock#close()} called, for example because the network to a
   * database was cut, or the holder's process stopped. Such a key lock is then lost, and another
   * holder may take it, so that a holder cut off from the storage cannot block the key for longer
   * than that (a database session would otherwise keep its lock until the operating system gives up
   * on the connection, which can take hours). A holder keeps the key lock by calling {@link
   * KeyLock#isHeld()} more often than {@code silenceLimit}: the manager does it every heartbeat
   * round while the lease is held, and asks for its lease's TTL plus its {@linkplain
   * LeaseManagerBuilder#grace grace}, so the storage ends a key lock only after the lease it guards
   * was lost. The fencing token keeps protecting a resource that checks it: work that outlives its
   * key lock writes with an old token.
   *
   * <p>The storage may add a margin, and storages whose key lock dies with the holder's process
   * (memory, files, SQLite) ignore the limit: the default takes {@link #lockKey(String)}. Adapters
   * whose key lock lives on the far side of a network (JDBC) override it.
   *
   * @param key the lease key
   * @param silenceLimit how long the holder may be silent before the storage may end the key lock;
   *     positive
   * @return the held key lock; close it to release, from any thread
   * @throws InterruptedException if the calling thread was interrupted while waiting
   * @throws StoreLost if the store is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the key lock cannot be taken for a reason other than
   *     contention
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys}, or {@code
   *     silenceLimit} is zero or negative
   */
  default KeyLock lockKey(String key, Duration silenceLimit) throws InterruptedException {
    requireSilenceLimit(silenceLimit);
    return lockKey(key);
  }

  private static Duration requireSilenceLimit(Duration silenceLimit) {
    Objects.requireNonNull(silenceLimit, "silenceLimit");
    if (silenceLimit.isNegative() || silenceLimit.isZero()) {
      throw new IllegalArgumentException("silenceLimit must be positive, was " + silenceLimit);
    }
    return silenceLimit;
  }

  /**
   * Opens a watch of one key's releases, so that a waiting acquisition ({@link
   * LeaseManager#acquire(String, Duration)}) can try again as soon as the key's holder lets go
   * instead of polling. The manager opens one watch per waiting acquisition, before its first
   * attempt, and closes it when the acquisition ends.
   *
   * <p>What a watch tells is only a hint to look again: the record itself, read by the next
   * attempt, says whether the key is free. Which releases a watch sees depends on the store (see
   * each adapter): at least those made through this repository instance; the stores that can also
   * see other instances' and other processes' releases say so.
   *
   * <p>Opening a watch does no I/O that can block the caller for long, and never fails for the
   * storage's sake: a store that cannot be watched now returns empty. The default returns empty,
   * and the manager then polls.
   *
   * @param key the lease key
   * @return the open watch, or empty if this repository cannot tell releases
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys}
   */
  default Optional<KeyWatch> watchKey(String key) {
    LeaseKeys.requireValid(key);
    return Optional.empty();
  }

  /**
   * Releases what the repository holds open (connections, file handles). Repositories that hold
   * nothing do nothing. Does not delete stored records.
   */
  @Override
  default void close() {}

  /**
   * A held key lock. Closing it releases the key lock; closing it again does nothing. Thread-safe.
   */
  interface KeyLock extends AutoCloseable {

    /**
     * Tells whether the key lock is still held: {@code false} once closed, or once the storage lost
     * it (a database connection that dropped, a lock file deleted or replaced under it). It may ask
     * the storage, so it may block briefly: the manager calls it once per heartbeat round while
     * fenced work runs, from its repository thread, never from its timer. Asking the storage also
     * tells it that the holder is still there (see {@link LeaseRepository#lockKey(String,
     * Duration)}).
     *
     * @return {@code true} while the key lock still excludes every other holder
     */
    boolean isHeld();

    /** Releases the key lock. */
    @Override
    void close();

    /**
     * Releases the key lock of work that ended after its lease was lost, without waiting for the
     * storage: the manager calls it instead of {@link #close()}, so that a loss is reported at once
     * even when the storage cannot be reached (a cut network would hold a release until it heals or
     * times out). The key lock must keep excluding others until the storage has let it go, as on
     * {@link #close()}; only the caller does not wait for that. The default closes.
     */
    default void abandon() {
      close();
    }
  }

  /**
   * An open watch of one key's releases, from {@link LeaseRepository#watchKey}. Thread-safe; one
   * thread awaits it at a time.
   *
   * <p>The promise: once the key's record is released after the watch was opened, or after the last
   * {@link #awaitRelease} returned, the next {@code awaitRelease} returns {@code true} at once or
   * as soon as the release is seen. A release that lands between a failed attempt and the await
   * that follows it is therefore never lost, provided the watch was opened before the attempt. So
   * does everything else after which the key may be free or the watch may have missed a release:
   * the record deleted or pruned, the store's notification channel lost (a dropped database
   * connection: it may have missed releases while it was down). Spurious wake-ups are allowed:
   * {@code true} means "look again", never "the key is free".
   */
  interface KeyWatch extends AutoCloseable {

    /**
     * Waits until the key was released (as the watch's promise says) or {@code timeout} passes, in
     * real time, whichever is first; then starts counting releases afresh.
     *
     * @param timeout the longest to wait; zero or negative only asks whether a release was seen
     * @return {@code true} if a release (or a wake-up counted as one) came since the watch opened
     *     or the last await returned, or the watch was closed; {@code false} if the timeout passed
     *     without one
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    boolean awaitRelease(Duration timeout) throws InterruptedException;

    /** Closes the watch: it stops counting releases, and a thread awaiting it returns. */
    @Override
    void close();
  }
}
