package dev.rivus.agentkit.lease;

import java.util.List;
import java.util.Optional;

/**
 * The storage port of the lease library: where lease records live and how writers are kept apart.
 * Adapters: {@code MemoryLeaseRepository}, {@code FileLeaseRepository}, and the SQLite and JDBC
 * modules.
 *
 * <p>Every implementation passes the shared contract suite ({@code LeaseRepositoryContract} in
 * {@code lease-testkit}) and is safe to call from many threads at once. Keys are arbitrary strings
 * (see {@link LeaseKeys}); an adapter never lets a key escape its storage. Expected failures are
 * {@link RevisionConflict} and {@link LeaseRepositoryFailure}; nothing else escapes for an expected
 * condition.
 */
public interface LeaseRepository extends AutoCloseable {

  /**
   * Loads the stored record of a key.
   *
   * <p>A repository that pruned the key's tombstone may return a floor: a released snapshot with
   * revision {@code 0} whose generation the next acquisition must exceed.
   *
   * @param key the lease key
   * @return the stored snapshot, or empty when the key was never stored
   * @throws LeaseRepositoryFailure if the storage cannot be read or holds a corrupt record
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys}
   */
  Optional<LeaseSnapshot> load(String key);

  /**
   * Loads every stored record, for inspection ({@code lease list}, dashboards). Not for hot paths:
   * it reads the whole store. Floors left by pruning are not listed.
   *
   * @return every stored snapshot, in no particular order
   * @throws LeaseRepositoryFailure if the storage cannot be read or holds a corrupt record
   */
  List<LeaseSnapshot> loadAll();

  /**
   * Writes {@code snapshot} over the stored record only if that record's revision is {@code
   * expectedRevision} ({@code 0} meaning "no record"). The comparison and the write are one atomic
   * step with respect to every other writer of the same storage, in this process or another. A
   * write that raises the generation is durable when this method returns.
   *
   * @param key the lease key; must equal {@code snapshot.key()}
   * @param snapshot the new record, whose revision is higher than {@code expectedRevision}
   * @param expectedRevision the revision this writer last saw
   * @throws RevisionConflict if another writer moved the record first; nothing was written
   * @throws LeaseRepositoryFailure if the storage cannot be written within the repository's budget
   * @throws IllegalArgumentException if the key breaks the rule of {@link LeaseKeys} or does not
   *     match the snapshot
   */
  void save(String key, LeaseSnapshot snapshot, long expectedRevision);

  /**
   * Takes the key's fence: a lock, distinct from whatever guards {@link #save}, that at most one
   * thread in all processes sharing this storage holds for a key at a time. Fenced work runs under
   * it, so a successor's fenced work starts only after its predecessor's ended. Waiting for it
   * never blocks a save, so holders keep renewing while others wait or work.
   *
   * <p>The wait ends early when the calling thread is interrupted. If the holding process dies, the
   * storage (or the operating system) releases the fence.
   *
   * @param key the lease key
   * @return the held fence; close it to release, from any thread
   * @throws InterruptedException if the calling thread was interrupted while waiting
   * @throws LeaseRepositoryFailure if the fence cannot be taken for a reason other than contention
   */
  Fence lockFence(String key) throws InterruptedException;

  /**
   * Releases what the repository holds open (connections, file handles). Repositories that hold
   * nothing do nothing. Does not delete stored records.
   */
  @Override
  default void close() {}

  /** A held per-key fence. Closing it releases the fence; closing it again does nothing. */
  interface Fence extends AutoCloseable {
    /** Releases the fence. */
    @Override
    void close();
  }
}
