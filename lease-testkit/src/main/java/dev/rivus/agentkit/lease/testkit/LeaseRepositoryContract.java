/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The contract every {@link LeaseRepository} adapter passes, within one process: records and
 * revisions, keys, concurrent compare-and-set writers, the key lock, and generations that never go
 * back under a {@code LeaseManager}. Cross-process behaviour is {@link CrossProcessLeaseContract}.
 *
 * <p>An adapter's test extends this class and implements {@link #createRepository()}, returning a
 * repository on fresh, empty storage for each test (for example in a {@code @TempDir}), and {@link
 * #openSecondInstance()}, returning another instance on that same storage, opened as a second
 * process would open it; the contract's two-instance tests use both at once. It overrides {@link
 * #closeRepository(LeaseRepository)} if closing needs more than {@link LeaseRepository#close()}.
 * Each test asserts what the specification promises and fails otherwise.
 *
 * <p>Not thread-safe: JUnit runs one test of an instance at a time.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class LeaseRepositoryContract {

  /** Seeds of the random lease walks; fixed, so that a failure can be replayed. */
  static final List<Long> WALK_SEEDS = List.of(3L, 4L, 7L, 12L);

  static final int WALK_STEPS = 200;

  private @Nullable LeaseRepository repository;
  private @Nullable LeaseRepository second;
  private @Nullable Workers workers;

  /** For subclasses. */
  protected LeaseRepositoryContract() {}

  /**
   * Creates a repository on fresh, empty storage. Called before each test.
   *
   * @return the repository under test
   * @throws Exception if it cannot be created
   */
  protected abstract LeaseRepository createRepository() throws Exception;

  /**
   * Opens a second repository instance on the storage of the one {@link #createRepository()} made
   * for this test, as another process would open it (a new connection, a new file handle, its own
   * caches), so that the contract can check that two instances exclude each other as two processes
   * must. Called at most once per test, by the tests that need it; the instance is closed with
   * {@link #closeRepository} after the test. A store that exists only inside one instance, such as
   * memory, returns {@link #repository()} itself, which is then closed once.
   *
   * @return another instance on the same storage
   * @throws Exception if it cannot be opened
   */
  protected abstract LeaseRepository openSecondInstance() throws Exception;

  /**
   * Closes a repository created by {@link #createRepository()}. Called after each test.
   *
   * @param repository the repository to close
   * @throws Exception if closing fails
   */
  protected void closeRepository(LeaseRepository repository) throws Exception {
    repository.close();
  }

  /**
   * Makes one of this adapter's held key locks be lost as its storage would lose it while fenced
   * work runs (a database lock whose connection drops). The default returns {@code false}: the
   * adapter's key locks cannot be lost, and the key lock test then marks the key lock lost itself,
   * so that it still checks what the manager does.
   *
   * @param keyLock a key lock this adapter's {@link LeaseRepository#lockKey} returned, still held
   * @return {@code true} if the key lock was made lost, so that its {@link
   *     LeaseRepository.KeyLock#isHeld()} now says {@code false}
   * @throws Exception if the adapter failed to do it
   */
  protected boolean loseKeyLock(LeaseRepository.KeyLock keyLock) throws Exception {
    return false;
  }

  /**
   * Returns how long a test waits for something that must happen (a thread to get a free key lock,
   * a save to return) before it fails. The default, 20 s, is generous for a loaded build machine;
   * storage reached over a network may need more.
   *
   * @return the longest wait for an expected event
   */
  protected Duration patience() {
    return Duration.ofSeconds(20);
  }

  /**
   * Returns the repository of the running test, for tests an adapter adds.
   *
   * @return the repository created before this test
   */
  protected final LeaseRepository repository() {
    if (repository == null) {
      throw new IllegalStateException("no repository: createRepository() has not run");
    }
    return repository;
  }

  /**
   * Creates the repository under test.
   *
   * @throws Exception if {@link #createRepository()} fails
   */
  @BeforeEach
  public final void openRepositoryUnderTest() throws Exception {
    workers = new Workers();
    repository = createRepository();
  }

  /**
   * Stops the test's threads and closes the repository under test.
   *
   * @throws Exception if {@link #closeRepository(LeaseRepository)} fails
   */
  @AfterEach
  public final void closeRepositoryUnderTest() throws Exception {
    if (workers != null) {
      workers.close();
      workers = null;
    }
    LeaseRepository closingSecond = second;
    second = null;
    try {
      if (closingSecond != null && closingSecond != repository) {
        closeRepository(closingSecond);
      }
    } finally {
      if (repository != null) {
        LeaseRepository closing = repository;
        repository = null;
        closeRepository(closing);
      }
    }
  }

  private KeyLockProbe keyLock() {
    return new KeyLockProbe(repository(), repository(), workers(), patience());
  }

  /** A probe whose second party takes the key lock through the second instance. */
  private KeyLockProbe keyLockAcrossInstances() throws Exception {
    return new KeyLockProbe(repository(), secondInstance(), workers(), patience());
  }

  /**
   * Returns the second instance of the running test, opening it on first use.
   *
   * @return an instance on the same storage as {@link #repository()}
   * @throws Exception if {@link #openSecondInstance()} fails
   */
  protected final LeaseRepository secondInstance() throws Exception {
    if (second == null) {
      second = openSecondInstance();
    }
    return second;
  }

  private Workers workers() {
    if (workers == null) {
      throw new IllegalStateException("no workers: the test has not started");
    }
    return workers;
  }

  // ---- records and revisions ----

  /** A key never saved loads as empty. */
  @Test
  public void loadOfMissingKeyIsEmpty() {
    assertThat(repository().load("never-saved")).isEmpty();
  }

  /**
   * A first save (expected revision 0) stores the snapshot; loading returns it, equal in every
   * field, the holder's TTL included.
   */
  @Test
  public void firstSaveThenLoadReturnsEqualSnapshotInEveryField() {
    LeaseWrite first = Samples.firstWrite("task:42", "handle-1");
    LeaseWrite unknowns =
        new LeaseWrite(
            LeaseWrite.Intent.ACQUIRE,
            new LeaseSnapshot(
                "unknown-facts",
                3,
                7,
                LeaseState.HELD,
                new HolderIdentity(Samples.unknownProcess(77), "h"),
                Duration.ofSeconds(1),
                Samples.TIME),
            0);
    LeaseWrite large = Samples.acquisitionWithLargeNumbers("big-numbers");
    LeaseWrite tombstone = large.snapshot().release(Samples.TIME.plusNanos(1_000));

    for (LeaseWrite write : List.of(first, unknowns, large, tombstone)) {
      repository().save(write);
    }

    for (LeaseWrite write : List.of(first, unknowns, tombstone)) {
      assertThat(repository().load(write.key()))
          .as("loaded %s", write.key())
          .hasValue(write.snapshot());
    }
  }

  /** Each save over the revision it expects replaces the record: renewal, release, new holder. */
  @Test
  public void saveOverExpectedRevisionReplacesTheRecord() {
    LeaseWrite first = Samples.firstWrite("task:42", "handle-1");
    LeaseWrite renewal = first.snapshot().renewal(Samples.TIME.plusSeconds(15));
    LeaseWrite release = renewal.snapshot().release(Samples.TIME.plusSeconds(20));
    LeaseWrite next =
        release
            .snapshot()
            .acquisition(
                Samples.holder("handle-2"), Duration.ofMinutes(3), Samples.TIME.plusSeconds(21));

    repository().save(first);
    repository().save(renewal);
    repository().save(release);
    assertThat(repository().load("task:42")).hasValue(release.snapshot());
    repository().save(next);

    assertThat(repository().load("task:42")).hasValue(next.snapshot());
    assertThat(next.snapshot().generation()).isGreaterThan(first.snapshot().generation());
  }

  /** A save that expects a revision older than the stored one fails and leaves the record alone. */
  @Test
  public void saveWithStaleRevisionConflictsAndWritesNothing() {
    LeaseWrite first = Samples.firstWrite("task:42", "handle-1");
    LeaseWrite renewal = first.snapshot().renewal(Samples.TIME.plusSeconds(15));
    repository().save(first);
    repository().save(renewal);
    LeaseWrite stale =
        first
            .snapshot()
            .acquisition(Samples.holder("intruder"), Samples.TTL, Samples.TIME.plusSeconds(30));

    RevisionConflict conflict =
        catchThrowableOfType(RevisionConflict.class, () -> repository().save(stale));

    assertThat(conflict)
        .as("RevisionConflict for a save over revision 1 when 2 is stored")
        .isNotNull();
    assertThat(conflict.key()).isEqualTo("task:42");
    assertThat(conflict.expectedRevision()).isEqualTo(1);
    conflict.actualRevision().ifPresent(actual -> assertThat(actual).isEqualTo(2));
    assertThat(repository().load("task:42")).hasValue(renewal.snapshot());
  }

  /**
   * Two writers that both saw "no record" cannot both create it: expected 0 over a record fails.
   */
  @Test
  public void saveExpectingNoRecordOverAnExistingOneConflicts() {
    LeaseWrite winner = Samples.firstWrite("task:42", "winner");
    repository().save(winner);

    assertThatThrownBy(() -> repository().save(Samples.firstWrite("task:42", "loser")))
        .isInstanceOf(RevisionConflict.class);
    assertThat(repository().load("task:42")).hasValue(winner.snapshot());
  }

  /**
   * A write whose revision matches but whose generation does not fit the stored record conflicts: a
   * renewal or release of another generation (an old holder, after the record was deleted by hand
   * and created again from revision 1), or an acquisition that does not raise the generation.
   */
  @Test
  public void aWriteOfAnotherGenerationConflictsEvenWhenItsRevisionMatches() {
    LeaseWrite stored = Samples.firstWrite("task:42", "newer-holder");
    repository().save(stored);
    long generation = stored.snapshot().generation();
    LeaseSnapshot olderHolder =
        new LeaseSnapshot(
            "task:42",
            generation - 5,
            1,
            LeaseState.HELD,
            Samples.holder("older-holder"),
            Samples.TTL,
            Samples.TIME);
    LeaseSnapshot sameGeneration =
        new LeaseSnapshot(
            "task:42",
            generation,
            1,
            LeaseState.HELD,
            Samples.holder("same-generation"),
            Samples.TTL,
            Samples.TIME);

    for (LeaseWrite stale :
        List.of(
            olderHolder.renewal(Samples.TIME.plusSeconds(1)),
            olderHolder.release(Samples.TIME.plusSeconds(1)),
            olderHolder.acquisition(Samples.holder("x"), Samples.TTL, Samples.TIME),
            new LeaseWrite(
                LeaseWrite.Intent.ACQUIRE, sameGeneration.renewal(Samples.TIME).snapshot(), 1))) {
      assertThatThrownBy(() -> repository().save(stale))
          .as(
              "%s of generation %d over generation %d",
              stale.intent(), stale.snapshot().generation(), generation)
          .isInstanceOf(RevisionConflict.class);
    }
    assertThat(repository().load("task:42")).hasValue(stored.snapshot());
  }

  /** A save that expects a revision of a key never stored fails and creates nothing. */
  @Test
  public void saveOverMissingKeyWithNonZeroRevisionConflictsAndWritesNothing() {
    LeaseWrite renewal = Samples.first("task:42", "handle-1").renewal(Samples.TIME);

    RevisionConflict conflict =
        catchThrowableOfType(RevisionConflict.class, () -> repository().save(renewal));

    assertThat(conflict)
        .as("RevisionConflict for a save over revision 1 of a missing key")
        .isNotNull();
    assertThat(conflict.expectedRevision()).isEqualTo(1);
    conflict.actualRevision().ifPresent(actual -> assertThat(actual).isZero());
    assertThat(repository().load("task:42")).isEmpty();
  }

  /** Loading every record lists exactly the records saved, each as last written. */
  @Test
  public void loadAllReturnsEveryStoredRecordAndNothingElse() {
    assertThat(repository().loadAll()).as("records of an empty repository").isEmpty();
    LeaseWrite first = Samples.firstWrite("task:1", "handle-1");
    LeaseWrite second = Samples.firstWrite("task/2", "handle-2");
    LeaseWrite secondReleased = second.snapshot().release(Samples.TIME.plusSeconds(1));
    LeaseWrite third = Samples.acquisitionWithLargeNumbers("täsk 3");
    LeaseWrite thirdReleased = third.snapshot().release(Samples.TIME.plusSeconds(2));
    for (LeaseWrite write : List.of(first, second, secondReleased, third, thirdReleased)) {
      repository().save(write);
    }
    LeaseWrite neverCreated = Samples.first("task:4", "h").renewal(Samples.TIME);
    assertThatThrownBy(() -> repository().save(neverCreated)).isInstanceOf(RevisionConflict.class);

    assertThat(repository().loadAll())
        .as("every stored record")
        .containsExactlyInAnyOrder(
            first.snapshot(), secondReleased.snapshot(), thirdReleased.snapshot());
  }

  // ---- batches ----

  /**
   * A batch saves each write on its own: the ones whose revision matches are saved, a stale one
   * conflicts without stopping the others, and the outcomes come in the order of the writes.
   */
  @Test
  public void saveAllSavesEachWriteOnItsOwnAndReportsEachOutcomeInOrder() {
    List<LeaseWrite> firsts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      LeaseWrite first = Samples.firstWrite("batch/" + i, "handle-" + i);
      repository().save(first);
      firsts.add(first);
    }
    LeaseWrite movedMeanwhile = firsts.get(2).snapshot().renewal(Samples.TIME.plusSeconds(1));
    repository().save(movedMeanwhile);
    List<LeaseWrite> renewals = new ArrayList<>();
    for (LeaseWrite first : firsts) {
      renewals.add(first.snapshot().renewal(Samples.TIME.plusSeconds(2)));
    }
    renewals.add(Samples.firstWrite("batch/new", "handle-new"));

    List<SaveOutcome> outcomes = repository().saveAll(renewals);

    assertThat(outcomes).extracting(SaveOutcome::write).containsExactlyElementsOf(renewals);
    for (int i = 0; i < renewals.size(); i++) {
      LeaseWrite write = renewals.get(i);
      if (i == 2) {
        assertThat(outcomes.get(i).failure())
            .as("outcome of the stale renewal of %s", write.key())
            .isInstanceOf(RevisionConflict.class);
        assertThat(repository().load(write.key())).hasValue(movedMeanwhile.snapshot());
      } else {
        assertThat(outcomes.get(i).isSaved()).as("outcome of %s", write.key()).isTrue();
        assertThat(repository().load(write.key())).hasValue(write.snapshot());
      }
    }
    assertThat(repository().saveAll(List.of())).as("outcomes of an empty batch").isEmpty();
  }

  /**
   * A batch of acquisitions (the writes of {@code LeaseManager.acquireAll}) saves each on its own:
   * a new key, a key over its tombstone and a taken-over key are written, each with its holder and
   * raised generation; one that expects no record where there is one, and one over a stale
   * revision, conflict and write nothing, without stopping the others.
   */
  @Test
  public void saveAllOfAcquisitionsSavesEachOnItsOwnAndConflictsWriteNothing() {
    LeaseWrite released = Samples.firstWrite("acquire/released", "old-1");
    repository().save(released);
    LeaseWrite tombstone = released.snapshot().release(Samples.TIME.plusSeconds(1));
    repository().save(tombstone);
    LeaseWrite expired = Samples.firstWrite("acquire/expired", "old-2");
    repository().save(expired);
    LeaseWrite present = Samples.firstWrite("acquire/present", "old-3");
    repository().save(present);
    LeaseWrite stale = Samples.firstWrite("acquire/stale", "old-4");
    repository().save(stale);
    LeaseWrite staleRenewed = stale.snapshot().renewal(Samples.TIME.plusSeconds(1));
    repository().save(staleRenewed);
    HolderIdentity next = Samples.holder("next");
    Instant now = Samples.TIME.plusSeconds(2);
    List<LeaseWrite> batch =
        List.of(
            Samples.firstWrite("acquire/new", "next-0"),
            tombstone.snapshot().acquisition(next, Samples.TTL, now),
            expired.snapshot().acquisition(next, Samples.TTL, now),
            Samples.firstWrite("acquire/present", "next-3"),
            stale.snapshot().acquisition(next, Samples.TTL, now));

    List<SaveOutcome> outcomes = repository().saveAll(batch);

    assertThat(outcomes).extracting(SaveOutcome::write).containsExactlyElementsOf(batch);
    for (int i = 0; i < 3; i++) {
      assertThat(outcomes.get(i).isSaved()).as("outcome of %s", batch.get(i).key()).isTrue();
      assertThat(repository().load(batch.get(i).key())).hasValue(batch.get(i).snapshot());
    }
    assertThat(outcomes.get(3).failure()).isInstanceOf(RevisionConflict.class);
    assertThat(repository().load("acquire/present")).hasValue(present.snapshot());
    assertThat(outcomes.get(4).failure()).isInstanceOf(RevisionConflict.class);
    assertThat(repository().load("acquire/stale")).hasValue(staleRenewed.snapshot());
    assertThat(repository().loadAll(List.of("acquire/new", "acquire/missing", "acquire/stale")))
        .as("the records of the keys that have one")
        .containsOnlyKeys("acquire/new", "acquire/stale")
        .containsEntry("acquire/new", batch.get(0).snapshot())
        .containsEntry("acquire/stale", staleRenewed.snapshot());
  }

  /**
   * A heartbeat's batch of many renewals and releases saves each on its own, whatever statements a
   * store groups them in: a row renewed meanwhile, and a row taken over by a new generation at the
   * very revision the renewal would write, conflict and keep the other writer's record; every other
   * row is written.
   */
  @Test
  public void saveAllOfManyRenewalsAndReleasesReportsEachConflictingRow() {
    int count = 40;
    List<LeaseWrite> firsts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      firsts.add(Samples.firstWrite("renew/" + i, "handle-" + i));
    }
    assertThat(repository().saveAll(firsts)).allMatch(SaveOutcome::isSaved);
    LeaseWrite renewedMeanwhile = firsts.get(3).snapshot().renewal(Samples.TIME.plusSeconds(1));
    repository().save(renewedMeanwhile);
    LeaseWrite takenOver =
        firsts
            .get(17)
            .snapshot()
            .acquisition(Samples.holder("taker"), Samples.TTL, Samples.TIME.plusSeconds(1));
    repository().save(takenOver);
    LeaseWrite renewedBeforeRelease =
        firsts.get(31).snapshot().renewal(Samples.TIME.plusSeconds(1));
    repository().save(renewedBeforeRelease);
    List<LeaseWrite> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      LeaseSnapshot mine = firsts.get(i).snapshot();
      Instant now = Samples.TIME.plusSeconds(2);
      batch.add(i >= 30 ? mine.release(now) : mine.renewal(now));
    }
    assertThat(takenOver.snapshot().revision())
        .as("the takeover wrote the revision the renewal would")
        .isEqualTo(batch.get(17).snapshot().revision());

    List<SaveOutcome> outcomes = repository().saveAll(batch);

    assertThat(outcomes).extracting(SaveOutcome::write).containsExactlyElementsOf(batch);
    for (int i = 0; i < count; i++) {
      String key = batch.get(i).key();
      LeaseWrite meanwhile =
          i == 3 ? renewedMeanwhile : i == 17 ? takenOver : i == 31 ? renewedBeforeRelease : null;
      if (meanwhile != null) {
        assertThat(outcomes.get(i).failure())
            .as("outcome of %s", key)
            .isInstanceOf(RevisionConflict.class);
        assertThat(repository().load(key)).as("record of %s", key).hasValue(meanwhile.snapshot());
      } else {
        assertThat(outcomes.get(i).isSaved()).as("outcome of %s", key).isTrue();
        assertThat(repository().load(key))
            .as("record of %s", key)
            .hasValue(batch.get(i).snapshot());
      }
    }
  }

  // ---- keys ----

  /**
   * Keys of any content (path syntax, "..", case and Unicode variants, whitespace, 1024 characters)
   * each keep their own record: none collides with another or fails to round-trip.
   */
  @Test
  public void keysOfAnyContentRoundTripAndDoNotCollide() {
    List<String> keys = Samples.awkwardKeys();
    List<LeaseSnapshot> saved = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      LeaseWrite write = Samples.firstWrite(keys.get(i), "handle-" + i);
      try {
        repository().save(write);
      } catch (RevisionConflict conflict) {
        throw new AssertionError(
            "the first save of key "
                + Samples.describe(keys.get(i))
                + " found a record already: the key collides with one saved before it",
            conflict);
      }
      saved.add(write.snapshot());
    }

    for (LeaseSnapshot snapshot : saved) {
      assertThat(repository().load(snapshot.key()))
          .as("record of key %s", Samples.describe(snapshot.key()))
          .hasValue(snapshot);
    }
    assertThat(repository().load("a")).as("record of a key never saved").isEmpty();
  }

  /** Empty and over-long keys are refused with IllegalArgumentException by load and key lock. */
  @Test
  public void invalidKeysAreRejectedWithIllegalArgumentException() {
    List<String> invalid = List.of("", "k".repeat(LeaseKeys.MAX_LENGTH + 1));

    for (String key : invalid) {
      String shown = Samples.describe(key);
      assertThatThrownBy(() -> repository().load(key))
          .as("load(%s)", shown)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> repository().lockKey(key).close())
          .as("lockKey(%s)", shown)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(repository().load("valid")).isEmpty();
  }

  /** A null key is refused as the JDK refuses a null: NullPointerException naming the parameter. */
  @Test
  @SuppressWarnings("NullAway") // passes null where the port forbids it, to see how it is refused
  public void nullKeyIsRejectedWithNullPointerException() {
    assertThatThrownBy(() -> repository().load(null))
        .as("load(null)")
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> repository().lockKey(null).close())
        .as("lockKey(null)")
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
  }

  // ---- concurrent writers ----

  /**
   * Eight threads race compare-and-set writes on one key for a while: every revision has exactly
   * one winner, and no update is lost (final revision = 1 + successful saves; final generation = 1
   * + successful generation raises).
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void concurrentSaversNeverLoseAnUpdateAndEachRevisionHasOneWinner() throws Exception {
    assertNoUpdateLost(List.of(repository()));
  }

  // ---- two instances on one storage, as two processes use it ----

  /**
   * A record one instance writes is what the other reads next, and a write the other makes from an
   * older read conflicts: neither caches what the storage says.
   *
   * @throws Exception if the second instance cannot be opened
   */
  @Test
  public void twoInstancesReadEachOthersWritesAndConflictOnStaleOnes() throws Exception {
    LeaseRepository one = repository();
    LeaseRepository other = secondInstance();
    LeaseWrite first = Samples.firstWrite("shared", "h-1");
    one.save(first);
    LeaseSnapshot seenByOther = other.load("shared").orElseThrow();
    assertThat(seenByOther)
        .as("the first write, read by the other instance")
        .isEqualTo(first.snapshot());

    LeaseWrite renewal = first.snapshot().renewal(Samples.TIME.plusSeconds(1));
    one.save(renewal);

    assertThat(other.load("shared"))
        .as("the renewal, read by the other")
        .contains(renewal.snapshot());
    assertThatThrownBy(() -> other.save(seenByOther.renewal(Samples.TIME.plusSeconds(2))))
        .as("a renewal from the other's older read")
        .isInstanceOf(RevisionConflict.class);
    assertThat(one.load("shared")).contains(renewal.snapshot());
  }

  /**
   * Savers on two instances, half on each, still never lose an update and never win one revision
   * twice.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void concurrentSaversOnTwoInstancesNeverLoseAnUpdate() throws Exception {
    assertNoUpdateLost(List.of(repository(), secondInstance()));
  }

  /**
   * A key lock held through one instance keeps a thread of the other instance waiting until it is
   * released.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void aKeyLockHeldThroughOneInstanceExcludesTheOther() throws Exception {
    keyLockAcrossInstances().waiterProceedsOnlyAfterRelease("fenced");
  }

  /**
   * Threads hammering one key lock through two instances are never inside it two at a time.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void keyLockNeverHasTwoHoldersAcrossInstances() throws Exception {
    int maxConcurrent = keyLockAcrossInstances().maxConcurrentHolders("fenced", 4, 50);

    assertThat(maxConcurrent).as("most threads inside the key lock at once").isEqualTo(1);
  }

  private void assertNoUpdateLost(List<LeaseRepository> instances) throws Exception {
    ConcurrentSavers savers =
        new ConcurrentSavers(instances, "contended", 8, Duration.ofSeconds(1), patience());

    ConcurrentSavers.Outcome outcome = savers.run(workers());

    LeaseSnapshot last = repository().load("contended").orElseThrow();
    List<Long> won = new ArrayList<>(outcome.revisionsWon());
    Collections.sort(won);
    assertThat(wonTwice(won)).as("revisions won by more than one saver").isEmpty();
    assertThat(won).as("revisions won by all savers").isNotEmpty();
    assertThat(last.revision())
        .as("final revision: 1 + successful saves")
        .isEqualTo(1 + won.size());
    assertThat(won).as("revisions won, in order").isEqualTo(range(2, last.revision()));
    assertThat(last.generation())
        .as("final generation")
        .isEqualTo(Samples.first("contended", "seed").generation() + outcome.generationRaisesWon());
  }

  private static List<Long> wonTwice(List<Long> sorted) {
    List<Long> twice = new ArrayList<>();
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).equals(sorted.get(i - 1))) {
        twice.add(sorted.get(i));
      }
    }
    return twice;
  }

  private static List<Long> range(long fromInclusive, long toInclusive) {
    List<Long> values = new ArrayList<>();
    for (long v = fromInclusive; v <= toInclusive; v++) {
      values.add(v);
    }
    return values;
  }

  // ---- the key lock ----

  /**
   * While one thread holds a key lock, another waits for it, and gets it once it is released.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void secondThreadGetsTheKeyLockOnlyAfterTheFirstReleasesIt() throws Exception {
    keyLock().waiterProceedsOnlyAfterRelease("fenced");
  }

  /**
   * An abandoned key lock (fenced work ended by a loss) still excludes others until it is let go,
   * and is let go without anyone closing it: another thread gets it.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void anAbandonedKeyLockIsLetGoForTheNextHolder() throws Exception {
    keyLockAcrossInstances()
        .waiterProceedsOnlyAfterRelease("fenced", LeaseRepository.KeyLock::abandon);
  }

  /**
   * Threads hammering one key lock are never inside it two at a time.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void keyLockNeverHasTwoHoldersAtOnce() throws Exception {
    int maxConcurrent = keyLock().maxConcurrentHolders("fenced", 4, 50);

    assertThat(maxConcurrent).as("most threads inside the key lock at once").isEqualTo(1);
  }

  /**
   * Holding one key lock does not block the key locks of other keys.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void keyLocksOfDifferentKeysDoNotBlockEachOther() throws Exception {
    keyLock().othersAreFree("fenced", List.of("other", "fenced/2", "FENCED", "fenced ", "ÿ"));
  }

  /**
   * A thread waiting for a key lock stops waiting with InterruptedException when interrupted.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void keyLockWaitEndsWithInterruptedExceptionWhenInterrupted() throws Exception {
    keyLock().interruptedWaiterGivesUp("fenced");
  }

  /**
   * The key lock is distinct from the write lock: saves and loads go on while another thread holds
   * it.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void saveSucceedsWhileAnotherThreadHoldsTheKeyLock() throws Exception {
    LeaseWrite first = Samples.firstWrite("fenced", "handle-1");
    repository().save(first);

    keyLock()
        .whileHeldElsewhere(
            "fenced",
            () -> {
              LeaseWrite renewal = first.snapshot().renewal(Samples.TIME.plusSeconds(1));
              repository().save(renewal);
              assertThat(repository().load("fenced")).hasValue(renewal.snapshot());
            });
  }

  /**
   * A key lock may be released from another thread than the one that took it, and only once counts.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void keyLockReleasedFromAnotherThreadOrTwiceIsReleasedExactlyOnce() throws Exception {
    keyLock().releaseFromAnotherThreadTwice("fenced");
  }

  /**
   * A key lock lost while fenced work runs ends the work as the loss of the lease does: the work is
   * interrupted, its cancel actions run, it ends with {@link LeaseLost} (reason {@code
   * KEY_LOCK_LOST}), and the lease is no longer held. The loss is found at the next renewal round.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void fencedWorkEndsAsOnLossWhenItsKeyLockIsLost() throws Exception {
    LosableKeyLocks losable = new LosableKeyLocks(repository(), this::loseKeyLock);
    FakePlatform platform = new FakePlatform();
    Duration heartbeat = Duration.ofSeconds(2);
    try (LeaseManager leases = platform.newManager(losable, Duration.ofSeconds(10), heartbeat)) {
      Lease lease = leases.acquire("fenced");
      CountDownLatch working = new CountDownLatch(1);
      CountDownLatch cancelled = new CountDownLatch(1);
      Future<@Nullable Throwable> work =
          workers()
              .submit(
                  () -> {
                    try {
                      lease.runFenced(
                          token -> {
                            // Like a call that ignores interrupts: only its cancel action ends it.
                            token.onLoss(cancelled::countDown);
                            working.countDown();
                            boolean interrupted = false;
                            while (cancelled.getCount() > 0) {
                              try {
                                cancelled.await();
                              } catch (InterruptedException e) {
                                interrupted = true;
                              }
                            }
                            return interrupted;
                          });
                      return null;
                    } catch (Throwable ended) {
                      return ended;
                    }
                  });
      assertThat(working.await(patience().toNanos(), TimeUnit.NANOSECONDS))
          .as("the fenced work started")
          .isTrue();

      losable.lose("fenced");
      platform.advance(heartbeat);

      Throwable ended = Workers.await(work, patience(), "the fenced work");
      assertThat(ended)
          .as("how the fenced work ended")
          .isInstanceOfSatisfying(
              LeaseLost.class,
              lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.KEY_LOCK_LOST));
      assertThat(cancelled.await(patience().toNanos(), TimeUnit.NANOSECONDS))
          .as("the work's cancel action ran")
          .isTrue();
      assertThat(lease.isHeld()).as("the lease is held after its key lock was lost").isFalse();
    }
  }

  /**
   * Closing a lease releases it even while its thread is being interrupted, over and over, as the
   * tombstone is written (the pattern of Spring Integration's {@code testBothLock}): an interrupt
   * that reached the repository call itself would otherwise leave the record held, and everyone
   * would wait out the TTL. The closing thread's interrupt is kept.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void closingALeaseWhileItsThreadIsInterruptedStillReleasesIt() throws Exception {
    try (LeaseManager leases =
        LeaseManager.builder(repository())
            .ttl(Duration.ofSeconds(30))
            .heartbeat(Duration.ofSeconds(5))
            .build()) {
      for (int round = 0; round < 10; round++) {
        Lease lease = leases.acquire("interrupted-close");
        CountDownLatch closerReady = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        AtomicReference<Thread> closer = new AtomicReference<>();
        Future<Boolean> closing =
            workers()
                .submit(
                    () -> {
                      closer.set(Thread.currentThread());
                      closerReady.countDown();
                      Thread.currentThread().interrupt(); // pending when close starts, at least
                      lease.close();
                      closed.set(true);
                      return Thread.interrupted();
                    });
        assertThat(closerReady.await(patience().toNanos(), TimeUnit.NANOSECONDS)).isTrue();
        Thread closerThread = Objects.requireNonNull(closer.get(), "set before closerReady");
        while (!closed.get() && !closing.isDone()) {
          closerThread.interrupt();
          Thread.onSpinWait();
        }

        assertThat(Workers.await(closing, patience(), "the closing thread"))
            .as("the closing thread's interrupt is kept")
            .isTrue();
        assertThat(repository().load("interrupted-close").orElseThrow().state())
            .as("the record after close, round %d", round)
            .isEqualTo(LeaseState.RELEASED);
      }
    }
  }

  // ---- watches of releases ----

  /**
   * A release saved through the repository after its watch of the key opened wakes the watch, also
   * when it landed before the await (a release between a waiter's attempt and its await is not
   * lost): by {@code save}, and by {@code saveAll} as the manager's releases go.
   *
   * @throws Exception if the repository or the await fails
   */
  @Test
  public void watchWakesOnAReleaseSavedBeforeItsAwait() throws Exception {
    LeaseWrite first = Samples.firstWrite("watched", "handle-1");
    repository().save(first);
    Optional<LeaseRepository.KeyWatch> opened = repository().watchKey("watched");
    Assumptions.assumeTrue(opened.isPresent(), "this repository has no watch: waiters poll");
    try (LeaseRepository.KeyWatch watch = opened.get()) {
      repository().save(first.snapshot().release(Samples.TIME.plusSeconds(1)));
      assertThat(watch.awaitRelease(patience())).as("woken by a release by save").isTrue();

      LeaseWrite again =
          first
              .snapshot()
              .release(Samples.TIME.plusSeconds(1))
              .snapshot()
              .acquisition(Samples.holder("handle-2"), Duration.ofMinutes(1), Samples.TIME);
      repository().save(again);
      drain(watch);
      List<SaveOutcome> outcomes =
          repository().saveAll(List.of(again.snapshot().release(Samples.TIME.plusSeconds(2))));
      assertThat(outcomes.get(0).isSaved()).isTrue();
      assertThat(watch.awaitRelease(patience())).as("woken by a release by saveAll").isTrue();
    }
  }

  /**
   * Closing a watch ends a wait on it at once, and a closed watch answers without waiting.
   *
   * @throws Exception if the repository or the await fails
   */
  @Test
  public void closingAWatchEndsItsWait() throws Exception {
    Optional<LeaseRepository.KeyWatch> opened = repository().watchKey("closed-watch");
    Assumptions.assumeTrue(opened.isPresent(), "this repository has no watch: waiters poll");
    LeaseRepository.KeyWatch watch = opened.get();
    drain(watch);
    CountDownLatch awaiting = new CountDownLatch(1);
    Future<Boolean> waiter =
        workers()
            .submit(
                () -> {
                  awaiting.countDown();
                  return watch.awaitRelease(Duration.ofMinutes(5));
                });
    assertThat(awaiting.await(patience().toNanos(), TimeUnit.NANOSECONDS)).isTrue();
    watch.close();
    assertThat(Workers.await(waiter, patience(), "the wait on a closed watch")).isTrue();
    assertThat(watch.awaitRelease(Duration.ofMinutes(5))).as("a closed watch answers").isTrue();
  }

  /** Takes the wake-ups a watch already has (a store's own, when it starts listening). */
  private static void drain(LeaseRepository.KeyWatch watch) throws InterruptedException {
    for (int i = 0; i < 100 && watch.awaitRelease(Duration.ofMillis(50)); i++) {
      // a spurious wake-up: allowed, and taken here so the next await means the next release
    }
  }

  // ---- generations under a lease manager ----

  /**
   * Random sequences of acquire (fast and blocking), renew, release, fenced work, frozen and
   * crashed processes, on fake time through real lease managers: the stored generation never goes
   * back, each acquisition raises it by exactly one, and only the newest holder's fenced work runs.
   *
   * @throws Exception if the repository or a worker thread fails
   */
  @Test
  public void generationsNeverGoBackUnderRandomLeaseOperations() throws Exception {
    for (long seed : WALK_SEEDS) {
      new GenerationWalk(repository(), seed).run(WALK_STEPS);
    }
  }
}
