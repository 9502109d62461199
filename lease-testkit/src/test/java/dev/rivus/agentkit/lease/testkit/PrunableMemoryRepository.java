package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.KeyedLocks;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A reference prunable repository in memory, to check the contract's pruning test and the prune
 * steps of its random walk: a pruned tombstone leaves a floor (revision 0, released) with its
 * generation.
 */
final class PrunableMemoryRepository implements PrunableLeaseRepository {

  private static final HolderIdentity PRUNED =
      new HolderIdentity(new ProcessIdentity("pruned", null, null, 1, null), "floor");

  private final Map<String, LeaseSnapshot> records = new HashMap<>(); // guarded by this
  private final Map<String, Long> floors = new HashMap<>(); // guarded by this
  private final KeyedLocks<String> fences = new KeyedLocks<>();

  @Override
  public synchronized Optional<LeaseSnapshot> load(String key) {
    LeaseSnapshot stored = records.get(LeaseKeys.requireValid(key));
    if (stored != null || !floors.containsKey(key)) {
      return Optional.ofNullable(stored);
    }
    return Optional.of(
        new LeaseSnapshot(key, floors.get(key), 0, LeaseState.RELEASED, PRUNED, Instant.EPOCH));
  }

  @Override
  public synchronized List<LeaseSnapshot> loadAll() {
    return List.copyOf(records.values());
  }

  @Override
  public synchronized void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
    if (!LeaseKeys.requireValid(key).equals(snapshot.key())) {
      throw new IllegalArgumentException("key does not match the snapshot");
    }
    LeaseSnapshot stored = records.get(key);
    long actual = stored == null ? 0 : stored.revision();
    if (actual != expectedRevision) {
      throw new RevisionConflict(key, expectedRevision, actual);
    }
    records.put(key, snapshot);
  }

  @Override
  public synchronized int prune(Duration olderThan) {
    if (olderThan == null || olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must be zero or positive, was " + olderThan);
    }
    Instant cutoff = Instant.now().minus(olderThan);
    List<LeaseSnapshot> tombstones =
        records.values().stream()
            .filter(r -> !r.isHeld())
            .filter(r -> olderThan.isZero() || r.updatedAt().isBefore(cutoff))
            .toList();
    for (LeaseSnapshot tombstone : tombstones) {
      records.remove(tombstone.key());
      floors.merge(tombstone.key(), tombstone.generation(), Math::max);
    }
    return tombstones.size();
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    return fences.lock(LeaseKeys.requireValid(key))::close;
  }
}
