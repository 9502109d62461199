/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.time.Duration;
import java.util.List;

/**
 * The negative control's repository, broken on purpose: its key lock excludes nobody, and a save
 * ignores the revision compare (it is rebased onto whatever revision is stored, so only the
 * underlying store's generation rule still holds). With fencing off at the resource, a stopped
 * holder that wakes up writes beside its successor, and the checker must see it.
 *
 * <p>Thread-safe if the repository under it is.
 */
final class BrokenRepository extends ForwardingLeaseRepository {

  BrokenRepository(LeaseRepository delegate) {
    super(delegate);
  }

  @Override
  public void save(LeaseWrite write) {
    long stored = delegate().load(write.key()).map(LeaseSnapshot::revision).orElse(0L);
    if (stored == write.expectedRevision()
        || (stored == 0 && write.intent() != LeaseWrite.Intent.ACQUIRE)) {
      super.save(write);
      return;
    }
    LeaseSnapshot wanted = write.snapshot();
    LeaseSnapshot rebased =
        new LeaseSnapshot(
            wanted.key(),
            wanted.generation(),
            stored + 1,
            wanted.state(),
            wanted.holder(),
            wanted.ttl(),
            wanted.updatedAt());
    super.save(new LeaseWrite(write.intent(), rebased, stored));
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    return saveEach(writes);
  }

  @Override
  public KeyLock lockKey(String key, Duration silenceLimit) {
    return lockKey(key); // the manager's form: as broken
  }

  @Override
  public KeyLock lockKey(String key) {
    return new KeyLock() {
      @Override
      public boolean isHeld() {
        return true;
      }

      @Override
      public void close() {}
    };
  }
}
