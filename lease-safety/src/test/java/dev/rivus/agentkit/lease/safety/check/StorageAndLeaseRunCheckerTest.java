/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.safety.driver.Phase;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker's judgement of lease run workers (P7) and of stores lost on purpose (P1 apart). */
class StorageAndLeaseRunCheckerTest {

  /** A lease run worker r5.1 enters k1 with token 10; w1.1 takes over with 11 and enters. */
  private static History leaseRunThenSuccessor() {
    return new History()
        .worker("r5.1", 2000)
        .worker("w1.1", 2000)
        .acquire("r5.1", "k1", 10, 0, 5, "NEW")
        .op("ENTER", "k1", 10, "r5.1")
        .op("READ", "k1", 10, "r5.1", "value", 0L)
        .acquire("w1.1", "k1", 11, 100, 2500, "DEAD_HOLDER")
        .section("k1", 11, "w1.1");
  }

  @Test
  void aLeaseRunTreeThatTalksAfterItsSuccessorEnteredViolatesP7() {
    History history = leaseRunThenSuccessor();
    history.fault(50, "run_kill", "r5.1");
    history.write("k1", 10, "r5.1", 1, false).finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isEqualTo(1);
    assertThat(verdict.violations("P3")).as("judged by P7").isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.FAIL);
    assertThat(String.join("\n", verdict.report()))
        .contains("P7 violation: seq 7: r5.1 (token 10) said WRITE on key k1 after its successor");
  }

  @Test
  void aKilledTreeThatStoppedTalkingBeforeItsSuccessorPasses() {
    History history = leaseRunThenSuccessor();
    history.fault(50, "run_kill", "r5.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.violations("P3")).isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
  }

  /** A stopped {@code lease} keeps the key lock its command runs under: no successor may enter. */
  @Test
  void aTreeThatTalksOnAfterItsSuccessorEnteredViolatesP7EvenIfItsLeaseProcessWasStopped() {
    History history = leaseRunThenSuccessor();
    history.fault(50, "run_stop", "r5.1");
    history.write("k1", 10, "r5.1", 1, false).op("EXIT", "k1", 10, "r5.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isEqualTo(2);
    assertThat(verdict.reportedApart("P7")).isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.FAIL);
  }

  /** A database session that held the key lock can end: then only the token protects. */
  @Test
  void aTreeThatTalksOnAfterItsLeaseLostItsKeyLockIsReportedApart() {
    History history = leaseRunThenSuccessor();
    history.event(40, "r5.1", "lost", "k1", 10, "reason", "KEY_LOCK_LOST");
    history.write("k1", 10, "r5.1", 1, false).op("EXIT", "k1", 10, "r5.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.reportedApart("P7")).isEqualTo(2);
    assertThat(verdict.report()).anyMatch(line -> line.contains("key lock lost"));
  }

  /**
   * The driver ended the lease run's sessions (its key lock's among them) and stopped its {@code
   * lease} process, which therefore never said KEY_LOCK_LOST before its successor entered: found in
   * the 300 s run's postgres-restart phase (seed 20261208, r7.123).
   */
  @Test
  void aTreeThatTalksOnAfterTheDriverEndedItsSessionsIsReportedApartEvenUnsaid() {
    Verdict verdict = sessionsEndedThenSuccessor("db_kill", "r5.1").check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.reportedApart("P7")).isEqualTo(2);
  }

  @Test
  void aServerRestartWhileTheLeaseRunHeldEndedItsKeyLockToo() {
    Verdict verdict = sessionsEndedThenSuccessor("db_restart", "all").check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.reportedApart("P7")).isEqualTo(2);
  }

  @Test
  void anotherWorkersSessionsEndedExcuseNothing() {
    Verdict verdict = sessionsEndedThenSuccessor("db_kill", "w2.1").check();

    assertThat(verdict.violations("P7")).isEqualTo(2);
    assertThat(verdict.reportedApart("P7")).isZero();
  }

  /**
   * A holder's network cut while it was inside, then healed: the client gave its key lock's session
   * up during the cut (a validity check that timed out closes the socket), and the server ended it
   * once the close crossed the healed network, while the holder's statement that the cut had
   * blocked still ran. Its lease had expired first, so it said EXPIRED, not KEY_LOCK_LOST. Found in
   * CI's run (postgres, seed 644840230, seq 507).
   */
  @Test
  void aSuccessorThatEntersAfterTheHolderWasCutOffAndHealedIsReportedApart() {
    Verdict verdict = cutOffThenSuccessor("w1.1", 2).check();

    assertThat(verdict.violations("P3")).isZero();
    assertThat(verdict.reportedApart("P3")).isEqualTo(1);
  }

  /** Before the heal the server still holds the cut-off holder's session, and its key lock. */
  @Test
  void aSuccessorThatEntersBeforeTheHealViolatesP3() {
    Verdict verdict = cutOffThenSuccessor("w1.1", 50).check();

    assertThat(verdict.violations("P3")).isEqualTo(1);
    assertThat(verdict.reportedApart("P3")).isZero();
  }

  @Test
  void anotherWorkersNetworkCutExcusesNothing() {
    Verdict verdict = cutOffThenSuccessor("w3.1", 2).check();

    assertThat(verdict.violations("P3")).isEqualTo(1);
  }

  /**
   * w1.1 holds k1 and is inside; at 1 ms the driver cuts {@code victim}'s network, healed at {@code
   * healAtMs}; w2.1 takes over and enters at 3 ms, while w1.1 is still inside.
   */
  private static History cutOffThenSuccessor(String victim, long healAtMs) {
    return new History()
        .worker("w1.1", 2000)
        .worker("w2.1", 2000)
        .acquire("w1.1", "k1", 10, 0, 0, "NEW")
        .op("ENTER", "k1", 10, "w1.1")
        .op("READ", "k1", 10, "w1.1", "value", 0L)
        .fault(1, "db_cut", victim, "ms", 4500L)
        .fault(healAtMs, "heal", victim)
        .acquire("w2.1", "k1", 11, 1, 2, "TTL_TAKEOVER")
        .section("k1", 11, "w2.1")
        .op("EXIT", "k1", 10, "w1.1")
        .finish();
  }

  /** A db_kill that failed, or found no session to end, ended no key lock (found in review). */
  @Test
  void aSessionKillThatEndedNothingExcusesNothing() {
    Verdict failed = sessionsEndedThenSuccessor("db_kill", "r5.1", "error", "refused").check();
    Verdict none = sessionsEndedThenSuccessor("db_kill", "r5.1", "sessions", List.of()).check();

    assertThat(failed.violations("P7")).isEqualTo(2);
    assertThat(none.violations("P7")).isEqualTo(2);
  }

  /**
   * r5.1 holds k1 (granted at 0 ms) and is inside; at 2 ms the driver ends {@code victim}'s
   * sessions and stops r5.1's {@code lease}; w1.1 takes over and enters at 3 ms; r5.1's tree talks
   * on.
   */
  private static History sessionsEndedThenSuccessor(String fault, String victim) {
    return sessionsEndedThenSuccessor(fault, victim, "sessions", List.of(4242L));
  }

  private static History sessionsEndedThenSuccessor(
      String fault, String victim, Object... faultFields) {
    return new History()
        .worker("r5.1", 2000)
        .worker("w1.1", 2000)
        .acquire("r5.1", "k1", 10, 0, 0, "NEW")
        .op("ENTER", "k1", 10, "r5.1")
        .op("READ", "k1", 10, "r5.1", "value", 0L)
        .fault(2, fault, victim, faultFields)
        .fault(2, "run_stop", "r5.1")
        .acquire("w1.1", "k1", 11, 1, 2, "TTL_TAKEOVER")
        .section("k1", 11, "w1.1")
        .write("k1", 10, "r5.1", 1, false)
        .op("EXIT", "k1", 10, "r5.1")
        .finish();
  }

  @Test
  void aProcessOfAKilledTreeLeftRunningViolatesP7() {
    History history =
        new History()
            .worker("r5.1", 2000)
            .acquire("r5.1", "k1", 10, 0, 5, "NEW")
            .fault(50, "run_kill", "r5.1")
            .event(60, "r5.1", "survivor", "k1", 0, "pids", "[4242]", "ms", 5000L)
            .finish();

    assertThat(history.check().violations("P7")).isEqualTo(1);
  }

  @Test
  void aTokenBelowAGrantedOneViolatesP1UnlessTheStoreWasLostOnPurposeInBetween() {
    History plain =
        new History()
            .worker("w1.1", 2000)
            .worker("w2.1", 2000)
            .acquire("w1.1", "k1", 500, 0, 5, "NEW")
            .release(50, "w1.1", "k1", 500)
            .acquire("w2.1", "k1", 20, 300, 310, "NEW")
            .finish();
    assertThat(plain.check().violations("P1")).isEqualTo(1);

    // Deleted, or damaged (cut in half, a page overwritten) and deleted by the operator's repair.
    for (String kind : List.of("store_delete", "db_truncate", "db_corrupt")) {
      History lost =
          new History()
              .worker("w1.1", 2000)
              .worker("w2.1", 2000)
              .acquire("w1.1", "k1", 500, 0, 5, "NEW")
              .release(50, "w1.1", "k1", 500)
              .fault(100, kind, "store")
              .note(250, "restart")
              .acquire("w2.1", "k1", 20, 300, 310, "NEW")
              .finish();

      Verdict apart = lost.check();

      assertThat(apart.violations("P1")).as(kind).isZero();
      assertThat(apart.reportedApart("P1")).as(kind).isEqualTo(1);
      assertThat(apart.figures().get("store lost on purpose"))
          .as(kind)
          .startsWith("1 times")
          .contains("below: 1");
      assertThat(apart.outcome()).as(kind).isEqualTo(Verdict.Outcome.PASS);
    }
  }

  /**
   * Seen in the long run's file phase (seed 20261204): a lease run called acquire, the store was
   * deleted while its JVM was starting, and it got k3 from the new store, below a token granted
   * before the deletion. The loss came during the call, not before it; still the store's doing.
   */
  @Test
  void aTokenBelowAGrantedOneIsReportedApartWhenTheStoreWasLostWhileTheAcquisitionWasUnderWay() {
    Verdict lostDuringTheCall = lowerTokenAfterAStoreDeletedAt100Ms(80, 310).check();

    assertThat(lostDuringTheCall.violations("P1")).isZero();
    assertThat(lostDuringTheCall.reportedApart("P1")).isEqualTo(1);

    Verdict lostAfterTheCall = lowerTokenAfterAStoreDeletedAt100Ms(80, 90).check();
    assertThat(lostAfterTheCall.violations("P1")).isEqualTo(1);
  }

  /** w1.1 got k3 with token 500; r5.1 got it with 20, called and returning at the times given. */
  private static History lowerTokenAfterAStoreDeletedAt100Ms(long startMs, long okMs) {
    return new History()
        .worker("w1.1", 2000)
        .worker("r5.1", 2000)
        .acquire("w1.1", "k3", 500, 0, 5, "NEW")
        .release(50, "w1.1", "k3", 500)
        .acquire("r5.1", "k3", 20, startMs, okMs, "NEW")
        .fault(100, "store_delete", "store")
        .note(250, "restart")
        .finish();
  }

  /**
   * w1.1 is inside k4 (token 500, granted at 0 ms) when the store goes at 2 ms; r5.1 gets token 900
   * from a new store at 3 ms and enters beside it; w1.1's late write is refused by the token.
   */
  private static History enteredBesideAHolderOfALostStore(String kind, String keyLock) {
    return new History()
        .worker("w1.1", 3000)
        .worker("r5.1", 2000)
        .acquire("w1.1", "k4", 500, 0, 0, "AFTER_RELEASE")
        .op("ENTER", "k4", 500, "w1.1")
        .storeLoss(2, kind, keyLock)
        .op("READ", "k4", 500, "w1.1", "value", 0L)
        .acquire("r5.1", "k4", 900, 1, 3, "NEW")
        .section("k4", 900, "r5.1")
        .write("k4", 500, "w1.1", 1, false)
        .op("EXIT", "k4", 500, "w1.1")
        .finish();
  }

  /**
   * The two key locks are two files once the store went with its key-lock files (docs/sqlite.md,
   * "Resetting a store"): the old holder gives its lease up only at its next renewal round, and
   * only the token protects the resource meanwhile (found in SafetyHarnessTest, seq 896 of a SQLite
   * phase: r5.16 entered k4 on the new database 122 ms after store_delete).
   */
  @Test
  void aSuccessorFromANewStoreBesideAHolderOfTheDeletedOneIsReportedApartWithWhatBecameOfIt() {
    Verdict verdict = enteredBesideAHolderOfALostStore("store_delete", "removed").check();

    assertThat(verdict.violations("P3")).isZero();
    assertThat(verdict.reportedApart("P3")).isEqualTo(1);
    assertThat(verdict.violations("P2")).isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
    assertThat(verdict.figures().get("store lost on purpose, old holders"))
        .isEqualTo(
            "1 with its key-lock files; fenced sections still open after it: 1 (the longest until"
                + " 6 ms after it); their writes after another worker entered the key: refused 1,"
                + " accepted 0");
  }

  /** An SQLite database swapped for a copy keeps its key-lock file: the key lock still excludes. */
  @Test
  void aSuccessorBesideAHolderViolatesP3WhenTheStoreLossKeptTheKeyLockFiles() {
    Verdict verdict = enteredBesideAHolderOfALostStore("store_replace", "kept").check();

    assertThat(verdict.violations("P3")).isEqualTo(1);
    assertThat(verdict.reportedApart("P3")).isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.FAIL);
  }

  @Test
  void twoHoldersGrantedAfterTheSameStoreLossExcuseNothing() {
    History history =
        new History()
            .worker("w1.1", 3000)
            .worker("w2.1", 3000)
            .storeLoss(0, "store_delete", "removed")
            .acquire("w1.1", "k4", 500, 0, 1, "NEW")
            .op("ENTER", "k4", 500, "w1.1")
            .acquire("w2.1", "k4", 501, 1, 2, "TTL_TAKEOVER")
            .section("k4", 501, "w2.1")
            .op("EXIT", "k4", 500, "w1.1")
            .finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P3")).isEqualTo(1);
    assertThat(verdict.reportedApart("P3")).isZero();
  }

  @Test
  void aLeaseRunTreeThatTalksOnBesideASuccessorFromANewStoreIsReportedApart() {
    History history =
        new History()
            .worker("r5.1", 2000)
            .worker("w1.1", 2000)
            .acquire("r5.1", "k1", 10, 0, 0, "NEW")
            .op("ENTER", "k1", 10, "r5.1")
            .storeLoss(2, "store_delete", "removed")
            .acquire("w1.1", "k1", 900, 2, 3, "NEW")
            .section("k1", 900, "w1.1")
            .write("k1", 10, "r5.1", 1, false)
            .finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.reportedApart("P7")).isEqualTo(1);
  }

  @Test
  void aStoreLossNotBetweenTheTwoAcquisitionsExcusesNothing() {
    History history =
        new History()
            .worker("w1.1", 2000)
            .worker("w2.1", 2000)
            .fault(0, "store_delete", "store")
            .note(1, "restart")
            .acquire("w1.1", "k1", 500, 10, 15, "NEW")
            .release(50, "w1.1", "k1", 500)
            .acquire("w2.1", "k1", 20, 300, 310, "NEW")
            .finish();

    assertThat(history.check().violations("P1")).isEqualTo(1);
  }

  @Test
  void theDelayFromLossToInterruptIsMeasured() {
    History history =
        new History()
            .worker("w1.1", 2000)
            .acquire("w1.1", "k1", 10, 0, 5, "NEW")
            .event(100, "w1.1", "lost", "k1", 10, "reason", "STORE_LOST")
            .event(130, "w1.1", "fenced_lost", "k1", 10, "reason", "STORE_LOST")
            .finish();

    assertThat(history.check().figures().get("loss to fenced work interrupted"))
        .startsWith("n=1 p50=30 ms");
  }

  @Test
  void totalsAddPhasesAndKeepTheNegativeControlApart() {
    Verdict clean = leaseRunThenSuccessor().fault(50, "run_kill", "r5.1").finish().check();
    History broken = leaseRunThenSuccessor();
    broken.write("k1", 10, "r5.1", 1, false).finish();
    Totals totals = new Totals();

    totals.add(new Phase("file", StoreKind.FILE, true, Duration.ZERO, 4, 1, false), clean);
    totals.add(new Phase("sqlite", StoreKind.SQLITE, true, Duration.ZERO, 4, 2, false), clean);
    totals.add(
        new Phase("negative-control", StoreKind.BROKEN, false, Duration.ZERO, 4, 3, true),
        broken.check());

    List<String> report = totals.report();
    assertThat(report)
        .anyMatch(
            l ->
                l.startsWith("  P7 ")
                    && l.contains(" 0   (reported apart: 0; negative control: 1)"));
    assertThat(report).contains("  faults: {run_kill=2}", "  faults injected: 2");
  }

  /** {@code lease run}'s command runs under the key lock, which a stopped holder keeps. */
  @Test
  void aLeaseRunBesideALibraryHolderViolatesP3WhetherTheHolderWasStoppedOrNot() {
    History stopped =
        new History()
            .worker("w1.1", 2000)
            .worker("r5.1", 2000)
            .acquire("w1.1", "k1", 10, 0, 5, "NEW")
            .op("ENTER", "k1", 10, "w1.1")
            .fault(0, "stop", "w1.1")
            .acquire("r5.1", "k1", 11, 10, 15, "TTL_TAKEOVER")
            .op("ENTER", "k1", 11, "r5.1")
            .op("EXIT", "k1", 11, "r5.1")
            .finish();
    History live =
        new History()
            .worker("w1.1", 2000)
            .worker("r5.1", 2000)
            .acquire("w1.1", "k1", 10, 0, 5, "NEW")
            .op("ENTER", "k1", 10, "w1.1")
            .acquire("r5.1", "k1", 11, 3000, 3015, "TTL_TAKEOVER")
            .op("ENTER", "k1", 11, "r5.1")
            .op("EXIT", "k1", 11, "r5.1")
            .finish();

    assertThat(stopped.check().violations("P3")).isEqualTo(1);
    assertThat(stopped.check().reportedApart("P3")).isZero();
    assertThat(live.check().violations("P3")).isEqualTo(1);
  }

  @Test
  void aLeaseRunAfterAHigherTokenThatEndedBeforeItIsNoP7Violation() {
    // After a store lost on purpose, tokens may restart lower: order names the successor.
    History history =
        new History()
            .worker("w1.1", 2000)
            .worker("r5.1", 2000)
            .acquire("w1.1", "k1", 500, 0, 5, "NEW")
            .section("k1", 500, "w1.1")
            .release(50, "w1.1", "k1", 500)
            .fault(100, "store_delete", "store")
            .note(200, "restart")
            .acquire("r5.1", "k1", 20, 300, 310, "NEW")
            .op("ENTER", "k1", 20, "r5.1")
            .op("READ", "k1", 20, "r5.1", "value", 1L)
            .write("k1", 20, "r5.1", 2, false)
            .op("EXIT", "k1", 20, "r5.1")
            .finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P7")).isZero();
    assertThat(verdict.reportedApart("P1")).isEqualTo(1);
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
  }
}
