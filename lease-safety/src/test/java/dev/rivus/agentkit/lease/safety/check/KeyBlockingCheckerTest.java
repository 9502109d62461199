/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * P8: after a holder went silent (its network cut), the first successor enters within the TTL, the
 * grace and the server's margin (3 + 1 + 1 s here), or at once if it acquired later, plus the
 * slack.
 */
class KeyBlockingCheckerTest {

  /** w1.1 holds k1 (token 10) and is cut off at 100 ms; w2.1 takes over at 3.2 s. */
  private static History cutHolder() {
    return new History()
        .worker("w1.1", 3000)
        .worker("w2.1", 3000)
        .acquire("w1.1", "k1", 10, 0, 5, "NEW")
        .section("k1", 10, "w1.1")
        .fault(100, "db_cut", "w1.1", "ms", 9000)
        .acquire("w2.1", "k1", 11, 200, 3200, "TTL_TAKEOVER");
  }

  @Test
  void aSuccessorThatEntersWithinTheBoundPasses() {
    History history = cutHolder();
    history.at(5400).section("k1", 11, "w2.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P8")).isZero();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
    assertThat(String.join("\n", verdict.report()))
        .contains("key blocked after its holder went silent (P8): n=1 p50=5300 ms");
  }

  @Test
  void aSuccessorKeptOutPastTheBoundViolatesP8() {
    History history = cutHolder();
    history.at(9000).section("k1", 11, "w2.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P8")).isEqualTo(1);
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.FAIL);
    assertThat(String.join("\n", verdict.report()))
        .contains(
            "P8 violation: w2.1 (token 11) entered key k1 8.9 s after w1.1 (token 10) went silent"
                + " (db_cut), 5.8 s after its own acquisition; the bound (TTL + grace + 1 s) was"
                + " 5.0 s");
  }

  @Test
  void aSuccessorHitByAFaultOfItsOwnBeforeItEnteredIsReportedApart() {
    History history = cutHolder();
    history.fault(4000, "stop", "w2.1", "ms", 4500);
    history.at(9000).section("k1", 11, "w2.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P8")).isZero();
    assertThat(verdict.reportedApart("P8")).isEqualTo(1);
  }

  @Test
  void onLocalLocksTheWaitAfterAStopIsAFigureOnly() {
    History history =
        new History()
            .worker("w1.1", 3000)
            .worker("w2.1", 3000)
            .acquire("w1.1", "k1", 10, 0, 5, "NEW")
            .section("k1", 10, "w1.1")
            .fault(100, "stop", "w1.1", "ms", 20000)
            .acquire("w2.1", "k1", 11, 200, 3200, "TTL_TAKEOVER");
    history.at(20200).section("k1", 11, "w2.1").finish();

    Verdict verdict = history.check();

    assertThat(verdict.violations("P8")).isZero();
    assertThat(String.join("\n", verdict.report()))
        .contains("key blocked after its holder went silent (a figure: local locks): n=1");
  }

  /**
   * The server ends a cut-off holder's key lock once its session has been silent for the TTL, the
   * grace and 1 s, the cut still on: a successor that enters after that, while the holder's section
   * is still open, is reported apart under P3 (the token protects the resource from then on); one
   * that enters sooner is a violation.
   */
  @Test
  void aSuccessorBesideACutOffHoldersOpenSectionIsApartOnlyOnceTheServerCouldEndItsKeyLock() {
    for (long enteredMs : new long[] {5000, 3300}) {
      History history =
          new History()
              .worker("w1.1", 3000)
              .worker("w2.1", 3000)
              .acquire("w1.1", "k1", 10, 0, 5, "NEW")
              .op("ENTER", "k1", 10, "w1.1")
              .fault(100, "db_cut", "w1.1", "ms", 9000)
              .acquire("w2.1", "k1", 11, 200, 3200, "TTL_TAKEOVER");
      history.at(enteredMs).section("k1", 11, "w2.1").fault(9100, "heal", "w1.1").finish();

      Verdict verdict = history.check();

      if (enteredMs == 5000) {
        assertThat(verdict.violations("P3")).as("entered at %d ms", enteredMs).isZero();
        assertThat(verdict.reportedApart("P3")).isEqualTo(1);
      } else {
        assertThat(verdict.violations("P3")).as("entered at %d ms", enteredMs).isEqualTo(1);
      }
    }
  }

  /**
   * On a database, the server also ends the key lock's session of a holder stopped (SIGSTOP) for
   * its TTL, its grace and 1 s: a successor beside its open section is then reported apart; on
   * local locks, which a stopped process keeps, it is a violation.
   */
  @Test
  void aSuccessorBesideAStoppedHoldersSectionIsApartOnlyOnADatabasePastTheBound() {
    for (boolean database : new boolean[] {true, false}) {
      History history =
          new History()
              .worker("w1.1", 2000)
              .worker("w2.1", 2000)
              .acquire("w1.1", "k1", 10, 0, 5, "NEW")
              .op("ENTER", "k1", 10, "w1.1")
              .fault(100, "stop", "w1.1", "ms", 4500)
              .acquire("w2.1", "k1", 11, 200, 2200, "TTL_TAKEOVER");
      if (database) {
        history.fault(150, "db_kill", "w9.1");
      }
      history.at(4000).section("k1", 11, "w2.1").finish();

      Verdict verdict = history.check();

      assertThat(verdict.violations("P3"))
          .as("on a database: %s", database)
          .isEqualTo(database ? 0 : 1);
      assertThat(verdict.reportedApart("P3"))
          .as("on a database: %s", database)
          .isEqualTo(database ? 1 : 0);
    }
  }
}
