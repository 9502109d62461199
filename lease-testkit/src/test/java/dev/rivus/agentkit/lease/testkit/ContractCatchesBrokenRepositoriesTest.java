package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
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
  void pruningWithoutAFloorIsCaught() {
    PrunableLeaseRepositoryContract contract =
        new PrunableLeaseRepositoryContract() {
          @Override
          protected PrunableLeaseRepository createRepository() {
            return new PrunesWithoutFloor();
          }

          @Override
          protected Duration patience() {
            return PATIENCE;
          }
        };
    assertFails(
        contract,
        PrunesWithoutFloor.class,
        c -> ((PrunableLeaseRepositoryContract) c).pruningTombstonesKeepsGenerationsRising());
  }

  @Test
  void aFenceThatExcludesNobodyIsCaught() {
    assertContractFails(
        NoFence::new, LeaseRepositoryContract::secondThreadGetsTheFenceOnlyAfterTheFirstReleasesIt);
    assertContractFails(NoFence::new, LeaseRepositoryContract::fenceNeverHasTwoHoldersAtOnce);
  }

  @Test
  void aFenceReleasedTwiceByTwoClosesIsCaught() {
    assertContractFails(
        DoubleReleasingFence::new,
        LeaseRepositoryContract::fenceReleasedFromAnotherThreadOrTwiceIsReleasedExactlyOnce);
  }

  @Test
  void oneFenceForAllKeysIsCaught() {
    assertContractFails(
        GlobalFence::new, LeaseRepositoryContract::fencesOfDifferentKeysDoNotBlockEachOther);
  }

  @Test
  void anUninterruptibleFenceWaitIsCaught() {
    assertContractFails(
        UninterruptibleFence::new,
        LeaseRepositoryContract::fenceWaitEndsWithInterruptedExceptionWhenInterrupted);
  }

  @Test
  void savesThatWaitForTheFenceAreCaught() {
    assertContractFails(
        SaveTakesTheFence::new,
        LeaseRepositoryContract::saveSucceedsWhileAnotherThreadHoldsTheKeysFence);
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
          protected Duration patience() {
            return PATIENCE;
          }
        };
    assertFails(contract, broken.get().getClass(), contractTest);
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

  /** Compares, then writes in a second step: two savers can both win one revision. */
  static final class RacySaves extends ForwardingRepository {
    private final Map<String, LeaseSnapshot> records = new ConcurrentHashMap<>();

    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return Optional.ofNullable(records.get(LeaseKeys.requireValid(key)));
    }

    @Override
    public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      LeaseSnapshot stored = records.get(key);
      long actual = stored == null ? 0 : stored.revision();
      if (actual != expectedRevision) {
        throw new RevisionConflict(key, expectedRevision, actual);
      }
      Thread.yield(); // the window between compare and write
      records.put(key, snapshot);
    }
  }

  /** Writes the snapshot, then reports the conflict it found. */
  static final class WritesThenConflicts extends ForwardingRepository {
    @Override
    public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      long actual = delegate().load(key).map(LeaseSnapshot::revision).orElse(0L);
      delegate().save(key, snapshot, actual);
      if (actual != expectedRevision) {
        throw new RevisionConflict(key, expectedRevision, actual);
      }
    }
  }

  /** Stores keys case-insensitively, as a naive file adapter on macOS or Windows would. */
  static final class CaseFoldingKeys extends ForwardingRepository {
    @Override
    public Optional<LeaseSnapshot> load(String key) {
      return delegate().load(fold(key)).map(s -> rekey(s, key));
    }

    @Override
    public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      delegate().save(fold(key), rekey(snapshot, fold(key)), expectedRevision);
    }

    private static String fold(String key) {
      return LeaseKeys.requireValid(key).toLowerCase(Locale.ROOT);
    }

    private static LeaseSnapshot rekey(LeaseSnapshot s, String key) {
      return new LeaseSnapshot(
          key, s.generation(), s.revision(), s.state(), s.holder(), s.updatedAt());
    }
  }

  /** Keeps wall-clock times to the millisecond only. */
  static final class MillisecondTimes extends ForwardingRepository {
    @Override
    public void save(String key, LeaseSnapshot s, long expectedRevision) {
      LeaseSnapshot truncated =
          new LeaseSnapshot(
              s.key(),
              s.generation(),
              s.revision(),
              s.state(),
              s.holder(),
              s.updatedAt().truncatedTo(ChronoUnit.MILLIS));
      delegate().save(key, truncated, expectedRevision);
    }
  }

  /** A correct compare-and-set over a map, for the defects below to build on. */
  static class MapRepository extends ForwardingRepository {
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
    public synchronized void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      LeaseSnapshot stored = records.get(LeaseKeys.requireValid(key));
      long actual = stored == null ? 0 : stored.revision();
      if (actual != expectedRevision) {
        throw new RevisionConflict(key, expectedRevision, actual);
      }
      records.put(key, snapshot);
    }
  }

  /** Deletes a record when it is released, so the next holder starts again at generation 1. */
  static final class ForgetsTombstones extends MapRepository {
    @Override
    public synchronized void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      super.save(key, snapshot, expectedRevision);
      if (snapshot.state() == LeaseState.RELEASED) {
        records.remove(key);
      }
    }
  }

  /** Prunes tombstones without leaving a floor. */
  static final class PrunesWithoutFloor extends MapRepository implements PrunableLeaseRepository {
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

  /** A fence that excludes nobody. */
  static final class NoFence extends ForwardingRepository {
    @Override
    public Fence lockFence(String key) {
      LeaseKeys.requireValid(key);
      return () -> {};
    }
  }

  /** A fence whose every close gives a permit back, so closing twice admits two holders. */
  static final class DoubleReleasingFence extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public Fence lockFence(String key) throws InterruptedException {
      LeaseKeys.requireValid(key);
      permit.acquire();
      return permit::release;
    }
  }

  /** One fence shared by every key. */
  static final class GlobalFence extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public Fence lockFence(String key) throws InterruptedException {
      LeaseKeys.requireValid(key);
      permit.acquire();
      return once(permit);
    }
  }

  /** A fence wait that ignores interrupts. */
  static final class UninterruptibleFence extends ForwardingRepository {
    private final Semaphore permit = new Semaphore(1);

    @Override
    public Fence lockFence(String key) {
      LeaseKeys.requireValid(key);
      permit.acquireUninterruptibly();
      return once(permit);
    }
  }

  /** Saves under the fence, so a fenced holder blocks every writer of its key. */
  @SuppressWarnings("try") // the fence is held for the extent of the try block
  static final class SaveTakesTheFence extends ForwardingRepository {
    @Override
    public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
      try (Fence fence = delegate().lockFence(key)) {
        delegate().save(key, snapshot, expectedRevision);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static LeaseRepository.Fence once(Semaphore permit) {
    boolean[] released = {false};
    return () -> {
      synchronized (released) {
        if (!released[0]) {
          released[0] = true;
          permit.release();
        }
      }
    };
  }
}
