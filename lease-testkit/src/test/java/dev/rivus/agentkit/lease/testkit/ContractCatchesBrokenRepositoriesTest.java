/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * The repository contract can fail: each test here runs one contract test against a repository with
 * one deliberate defect, and expects that contract test to fail.
 */
class ContractCatchesBrokenRepositoriesTest {

  /** Short, because these repositories are expected to make a contract test wait in vain. */
  private static final Duration PATIENCE = Duration.ofSeconds(2);

  @Test
  void lostUpdatesOfANonAtomicCompareAndSetAreCaught() {
    assertContractFails(
        RacySaves::new,
        LeaseRepositoryContract::concurrentSaversNeverLoseAnUpdateAndEachRevisionHasOneWinner);
  }

  @Test
  void aConflictThatStillWritesIsCaught() {
    assertContractFails(
        WritesThenConflicts::new,
        LeaseRepositoryContract::saveWithStaleRevisionConflictsAndWritesNothing);
  }

  @Test
  void keysThatCollideAfterCaseFoldingAreCaught() {
    assertContractFails(
        CaseFoldingKeys::new, LeaseRepositoryContract::keysOfAnyContentRoundTripAndDoNotCollide);
  }

  @Test
  void timesTruncatedToMillisecondsAreCaught() {
    assertContractFails(
        MillisecondTimes::new,
        LeaseRepositoryContract::firstSaveThenLoadReturnsEqualSnapshotInEveryField);
  }

  @Test
  void forgottenTombstonesAreCaughtByTheGenerationWalk() {
    assertContractFails(
        ForgetsTombstones::new,
        LeaseRepositoryContract::generationsNeverGoBackUnderRandomLeaseOperations);
  }

  @Test
  void ttlsRoundedToSecondsAreCaught() {
    assertContractFails(
        SecondTtls::new,
        LeaseRepositoryContract::firstSaveThenLoadReturnsEqualSnapshotInEveryField);
  }

  @Test
  void pruningWithoutAFloorIsCaught() {
    assertPrunableContractFails(
        PrunesWithoutFloor::new,
        PrunableLeaseRepositoryContract::pruningTombstonesKeepsGenerationsRising);
  }

  @Test
  void pruningThatRestartsRevisionsIsCaught() {
    assertPrunableContractFails(
        PrunesAndRestartsRevisions::new,
        PrunableLeaseRepositoryContract
            ::aSaveWhoseReadPredatesAPruneNeverMatchesARecordCreatedAfterIt);
  }

  @Test
  void aCompareOfRevisionsAloneIsCaught() {
    assertContractFails(
        ComparesRevisionsOnly::new,
        LeaseRepositoryContract::aWriteOfAnotherGenerationConflictsEvenWhenItsRevisionMatches);
  }

  @Test
  void aBatchThatStopsAtTheFirstConflictIsCaught() {
    assertContractFails(
        BatchStopsAtFirstConflict::new,
        LeaseRepositoryContract::saveAllSavesEachWriteOnItsOwnAndReportsEachOutcomeInOrder);
  }

  @Test
  void aKeyLockThatExcludesNobodyIsCaught() {
    assertContractFails(
        NoKeyLock::new,
        LeaseRepositoryContract::secondThreadGetsTheKeyLockOnlyAfterTheFirstReleasesIt);
    assertContractFails(NoKeyLock::new, LeaseRepositoryContract::keyLockNeverHasTwoHoldersAtOnce);
  }

  @Test
  void aKeyLockReleasedTwiceByTwoClosesIsCaught() {
    assertContractFails(
        DoubleReleasingKeyLock::new,
        LeaseRepositoryContract::keyLockReleasedFromAnotherThreadOrTwiceIsReleasedExactlyOnce);
  }

  @Test
  void oneKeyLockForAllKeysIsCaught() {
    assertContractFails(
        GlobalKeyLock::new, LeaseRepositoryContract::keyLocksOfDifferentKeysDoNotBlockEachOther);
  }

  @Test
  void anUninterruptibleKeyLockWaitIsCaught() {
    assertContractFails(
        UninterruptibleKeyLock::new,
        LeaseRepositoryContract::keyLockWaitEndsWithInterruptedExceptionWhenInterrupted);
  }

  @Test
  void savesThatWaitForTheKeyLockAreCaught() {
    assertContractFails(
        SaveTakesTheKeyLock::new,
        LeaseRepositoryContract::saveSucceedsWhileAnotherThreadHoldsTheKeyLock);
  }

  @Test
  void instancesThatCacheReadsAreCaught() {
    assertTwoInstanceContractFails(
        CachingReads::new,
        LeaseRepositoryContract::twoInstancesReadEachOthersWritesAndConflictOnStaleOnes);
  }

  @Test
  void keyLocksThatExcludeOnlyWithinOneInstanceAreCaught() {
    assertTwoInstanceContractFails(
        InstanceLocalKeyLocks::new,
        LeaseRepositoryContract::aKeyLockHeldThroughOneInstanceExcludesTheOther);
    assertTwoInstanceContractFails(
        InstanceLocalKeyLocks::new,
        LeaseRepositoryContract::keyLockNeverHasTwoHoldersAcrossInstances);
  }

  /** Runs a contract test on two instances {@code instance} makes over one shared storage. */
  private static void assertTwoInstanceContractFails(
      Function<LeaseRepository, LeaseRepository> instance,
      ThrowingConsumer<LeaseRepositoryContract> contractTest) {
    MemoryLeaseRepository storage = new MemoryLeaseRepository();
    LeaseRepositoryContract contract =
        new LeaseRepositoryContract() {
          @Override
          protected LeaseRepository createRepository() {
            return instance.apply(storage);
          }

          @Override
          protected LeaseRepository openSecondInstance() {
            return instance.apply(storage);
          }

          @Override
          protected Duration patience() {
            return PATIENCE;
          }
        };
    assertFails(contract, instance.apply(storage).getClass(), contractTest);
  }

  private static void assertContractFails(
      Supplier<LeaseRepository> broken, ThrowingConsumer<LeaseRepositoryContract> contractTest) {
    LeaseRepositoryContract contract =
        new LeaseRepositoryContract() {
          @Override
          protected LeaseRepository createRepository() {
            return broken.get();
          }

          @Override
          protected LeaseRepository openSecondInstance() {
            return repository();
          }

          @Override
          protected Duration patience() {
            return PATIENCE;
          }
        };
    assertFails(contract, broken.get().getClass(), contractTest);
  }

  private static void assertPrunableContractFails(
      Supplier<PrunableLeaseRepository> broken,
      ThrowingConsumer<PrunableLeaseRepositoryContract> contractTest) {
    PrunableLeaseRepositoryContract contract =
        new PrunableLeaseRepositoryContract() {
          @Override
          protected PrunableLeaseRepository createRepository() {
            return broken.get();
          }

          @Override
          protected LeaseRepository openSecondInstance() {
            return repository();
          }

          @Override
          protected Duration patience() {
            return PATIENCE;
          }
        };
    assertFails(
        contract,
        broken.get().getClass(),
        c -> contractTest.accept((PrunableLeaseRepositoryContract) c));
  }

  private static void assertFails(
      LeaseRepositoryContract contract,
      Class<?> broken,
      ThrowingConsumer<LeaseRepositoryContract> contractTest) {
    assertThatThrownBy(
            () -> {
              contract.openRepositoryUnderTest();
              try {
                contractTest.accept(contract);
              } finally {
                contract.closeRepositoryUnderTest();
              }
            })
        .as("the contract test run against %s", broken.getSimpleName())
        .isInstanceOf(AssertionError.class);
  }

  /** Keeps what it read or wrote, and reads it back from memory: blind to other instances. */
  static final class CachingReads extends ForwardingLeaseRepository {
    private final Map<String, LeaseSnapshot> cache = new ConcurrentHashMap<>();

    CachingReads(LeaseRepository storage) {
      super(storage);
    }

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      LeaseSnapshot cached = cache.get(key);
      if (cached != null) {
        return Optional.of(cached);
      }
      Optional<LeaseSnapshot> loaded = super.load(key);
      loaded.ifPresent(snapshot -> cache.put(key, snapshot));
      return loaded;
    }

    @Override
    public void save(LeaseWrite write) {
      super.save(write);
      cache.put(write.key(), write.snapshot());
    }
  }

  /** KeyLocks from a lock table of its own, as a JVM-local lock would be: other instances pass. */
  static final class InstanceLocalKeyLocks extends ForwardingLeaseRepository {
    private final MemoryLeaseRepository ownLocks = new MemoryLeaseRepository();

    InstanceLocalKeyLocks(LeaseRepository storage) {
      super(storage);
    }

    @Override
    public KeyLock lockKey(String key) throws InterruptedException {
      return ownLocks.lockKey(key);
    }
  }

  /** Compares, then writes in a second step: two savers can both win one revision. */
  static final class RacySaves extends ForwardingRepository {
    private final Map<String, LeaseSnapshot> records = new ConcurrentHashMap<>();

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return Optional.ofNullable(records.get(LeaseKeys.requireValid(key)));
    }

    @Override
    public void save(LeaseWrite write) {
      LeaseSnapshot stored = records.get(write.key());
      long actual = stored == null ? 0 : stored.revision();
      if (actual != write.expectedRevision()) {
        throw new RevisionConflict(write.key(), write.expectedRevision(), actual);
      }
      Thread.yield(); // the window between compare and write
      records.put(write.key(), write.snapshot());
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      return saveOneByOne(this, writes);
    }
  }

  /** Writes the snapshot, then reports the conflict it found. */
  static final class WritesThenConflicts extends ForwardingRepository {
    @Override
    public void save(LeaseWrite write) {
      long actual = delegate().load(write.key()).map(LeaseSnapshot::revision).orElse(0L);
      delegate().save(new LeaseWrite(write.intent(), write.snapshot(), actual));
      if (actual != write.expectedRevision()) {
        throw new RevisionConflict(write.key(), write.expectedRevision(), actual);
      }
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      return saveOneByOne(this, writes);
    }
  }

  /** Stores keys case-insensitively, as a naive file adapter on macOS or Windows would. */
  static final class CaseFoldingKeys extends ForwardingRepository {
    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return delegate().load(fold(key)).map(s -> rekey(s, key));
    }

    @Override
    public void save(LeaseWrite write) {
      delegate()
          .save(
              new LeaseWrite(
                  write.intent(),
                  rekey(write.snapshot(), fold(write.key())),
                  write.expectedRevision()));
    }

    private static String fold(String key) {
      return LeaseKeys.requireValid(key).toLowerCase(Locale.ROOT);
    }

    private static LeaseSnapshot rekey(LeaseSnapshot s, String key) {
      return new LeaseSnapshot(
          key, s.generation(), s.revision(), s.state(), s.holder(), s.ttl(), s.updatedAt());
    }
  }

  /** Keeps wall-clock times to the millisecond only. */
  static final class MillisecondTimes extends ForwardingRepository {
    @Override
    public void save(LeaseWrite write) {
      LeaseSnapshot s = write.snapshot();
      delegate()
          .save(
              new LeaseWrite(
                  write.intent(),
                  new LeaseSnapshot(
                      s.key(),
                      s.generation(),
                      s.revision(),
                      s.state(),
                      s.holder(),
                      s.ttl(),
                      s.updatedAt().truncatedTo(ChronoUnit.MILLIS)),
                  write.expectedRevision()));
    }
  }

  /** Keeps the holder's TTL to the second only. */
  static final class SecondTtls extends ForwardingRepository {
    @Override
    public void save(LeaseWrite write) {
      LeaseSnapshot s = write.snapshot();
      delegate()
          .save(
              new LeaseWrite(
                  write.intent(),
                  new LeaseSnapshot(
                      s.key(),
                      s.generation(),
                      s.revision(),
                      s.state(),
                      s.holder(),
                      Duration.ofSeconds(Math.max(1, s.ttl().toSeconds())),
                      s.updatedAt()),
                  write.expectedRevision()));
    }
  }

  /** Saves a batch until the first conflict, then gives the rest up as failed. */
  static final class BatchStopsAtFirstConflict extends ForwardingRepository {
    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      List<SaveOutcome> outcomes = new ArrayList<>();
      RevisionConflict first = null;
      for (LeaseWrite write : writes) {
        if (first != null) {
          outcomes.add(SaveOutcome.failed(write, first));
          continue;
        }
        try {
          save(write);
          outcomes.add(SaveOutcome.saved(write));
        } catch (RevisionConflict conflict) {
          first = conflict;
          outcomes.add(SaveOutcome.failed(write, conflict));
        }
      }
      return outcomes;
    }
  }

  /** A correct compare-and-set over a map, for the defects below to build on. */
  static class MapRepository extends ForwardingRepository implements PrunableLeaseRepository {
    final Map<String, LeaseSnapshot> records = new HashMap<>(); // guarded by this

    @Override
    public synchronized Optional<LeaseSnapshot> load(String key) {
      return Optional.ofNullable(records.get(LeaseKeys.requireValid(key)));
    }

    @Override
    public synchronized List<LeaseSnapshot> loadAll() {
      return List.copyOf(records.values());
    }

    @Override
    public synchronized void save(LeaseWrite write) {
      LeaseSnapshot stored = records.get(write.key());
      long actual = stored == null ? 0 : stored.revision();
      if (actual != write.expectedRevision()
          || (stored != null && comparesGenerations() && !write.mayReplace(stored))) {
        throw new RevisionConflict(write.key(), write.expectedRevision(), actual);
      }
      records.put(write.key(), write.snapshot());
    }

    boolean comparesGenerations() {
      return true;
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      return saveOneByOne(this, writes);
    }

    @Override
    public synchronized int prune(Duration olderThan) {
      throw new AssertionError("this repository does not prune");
    }
  }

  /** Compares revisions only, so a stale holder's write matches a record created anew. */
  static final class ComparesRevisionsOnly extends MapRepository {
    @Override
    boolean comparesGenerations() {
      return false;
    }
  }

  /** Deletes a record when it is released, so the next holder starts again. */
  static final class ForgetsTombstones extends MapRepository {
    @Override
    public synchronized void save(LeaseWrite write) {
      super.save(write);
      if (write.snapshot().state() == LeaseState.RELEASED) {
        records.remove(write.key());
      }
    }
  }

  /** Prunes tombstones without leaving a floor. */
  static final class PrunesWithoutFloor extends MapRepository {
    @Override
    public synchronized int prune(Duration olderThan) {
      if (olderThan.isNegative()) {
        throw new IllegalArgumentException("olderThan must not be negative");
      }
      int before = records.size();
      records.values().removeIf(r -> !r.isHeld() && olderThan.isZero());
      return before - records.size();
    }
  }

  /** Prunes with a generation floor, but a pruned key's revisions start again from 1. */
  static final class PrunesAndRestartsRevisions extends MapRepository {
    private long generationFloor; // guarded by this

    @Override
    public synchronized Optional<LeaseSnapshot> load(String key) {
      Optional<LeaseSnapshot> stored = super.load(key);
      if (stored.isPresent() || generationFloor == 0) {
        return stored;
      }
      return Optional.of(LeaseSnapshot.floor(key, generationFloor, 1, Instant.EPOCH));
    }

    @Override
    public synchronized void save(LeaseWrite write) {
      LeaseSnapshot stored = records.get(write.key());
      long actual = stored != null ? stored.revision() : generationFloor == 0 ? 0 : 1;
      if (actual != write.expectedRevision()) {
        throw new RevisionConflict(write.key(), write.expectedRevision(), actual);
      }
      records.put(write.key(), write.snapshot());
    }

    @Override
    public synchronized int prune(Duration olderThan) {
      int before = records.size();
      for (LeaseSnapshot record : List.copyOf(records.values())) {
        if (!record.isHeld() && olderThan.isZero()) {
          generationFloor = Math.max(generationFloor, record.generation());
          records.remove(record.key());
        }
      }
      return before - records.size();
    }
  }

  /** A key lock that excludes nobody. */
  static final class NoKeyLock extends ForwardingRepository {
    @Override
    public KeyLock lockKey(String key) {
      LeaseKeys.requireValid(key);
      return keyLock(() -> {});
    }
  }

  /** A key lock whose every close gives a permit back, so closing twice admits two holders. */
  static final class DoubleReleasingKeyLock extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public KeyLock lockKey(String key) throws InterruptedException {
      LeaseKeys.requireValid(key);
      permit.acquire();
      return new KeyLock() {
        @Override
        public boolean isHeld() {
          return true;
        }

        @Override
        public void close() {
          permit.release();
        }
      };
    }
  }

  /** One key lock shared by every key. */
  static final class GlobalKeyLock extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public KeyLock lockKey(String key) throws InterruptedException {
      LeaseKeys.requireValid(key);
      permit.acquire();
      return keyLock(permit::release);
    }
  }

  /** A key lock wait that ignores interrupts. */
  static final class UninterruptibleKeyLock extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public KeyLock lockKey(String key) {
      LeaseKeys.requireValid(key);
      permit.acquireUninterruptibly();
      return keyLock(permit::release);
    }
  }

  /** Saves under the key lock, so a fenced holder blocks every writer of its key. */
  @SuppressWarnings("try") // the key lock is held for the extent of the try block
  static final class SaveTakesTheKeyLock extends ForwardingRepository {
    @Override
    public void save(LeaseWrite write) {
      try (KeyLock keyLock = delegate().lockKey(write.key())) {
        delegate().save(write);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Routes a batch through the repository's own (broken) save. */
  private static List<SaveOutcome> saveOneByOne(
      LeaseRepository repository, List<LeaseWrite> writes) {
    List<SaveOutcome> outcomes = new ArrayList<>();
    for (LeaseWrite write : writes) {
      try {
        repository.save(write);
        outcomes.add(SaveOutcome.saved(write));
      } catch (RevisionConflict | LeaseRepositoryFailure failure) {
        outcomes.add(SaveOutcome.failed(write, failure));
      }
    }
    return outcomes;
  }

  /** A key lock whose release runs once, however often it is closed. */
  private static LeaseRepository.KeyLock keyLock(Runnable release) {
    AtomicBoolean released = new AtomicBoolean();
    return new LeaseRepository.KeyLock() {
      @Override
      public boolean isHeld() {
        return !released.get();
      }

      @Override
      public void close() {
        if (released.compareAndSet(false, true)) {
          release.run();
        }
      }
    };
  }
}
