package dev.rivus.agentkit.lease.memory;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.KeyedLocks;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A repository in this process's memory: leases shared by the managers of one JVM, gone when it
 * exits. Saves compare revisions atomically; the fence is a fair per-key lock. Thread-safe.
 */
public final class MemoryLeaseRepository implements LeaseRepository {

  private final ConcurrentMap<String, LeaseSnapshot> records = new ConcurrentHashMap<>();
  private final KeyedLocks<String> fences = new KeyedLocks<>();

  /** Creates an empty repository. */
  public MemoryLeaseRepository() {}

  @Override
  public Optional<LeaseSnapshot> load(String key) {
    return Optional.ofNullable(records.get(LeaseKeys.requireValid(key)));
  }

  @Override
  public List<LeaseSnapshot> loadAll() {
    return List.copyOf(records.values());
  }

  @Override
  public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
    LeaseKeys.requireValid(key);
    if (snapshot == null || !key.equals(snapshot.key())) {
      throw new IllegalArgumentException(
          "key '"
              + key
              + "' does not match the snapshot's key '"
              + (snapshot == null ? null : snapshot.key())
              + "'");
    }
    records.compute(
        key,
        (k, stored) -> {
          long actual = stored == null ? 0 : stored.revision();
          if (actual != expectedRevision) {
            throw new RevisionConflict(key, expectedRevision, actual);
          }
          return snapshot;
        });
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    KeyedLocks.Held held = fences.lock(LeaseKeys.requireValid(key));
    return held::close;
  }
}
