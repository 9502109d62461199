/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The databases' fence in P3 ({@link SideTable}), on hand-made logs: the fenced transactions the
 * workers reported against the side table and side log the driver read at the end.
 */
class SideTableTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final History history =
      new History()
          .worker("w1.1", 2000)
          .worker("w2.1", 3000)
          .acquire("w1.1", "k1", 10, 0, 5, "NEW")
          .section("k1", 10, "w1.1")
          .release(100, "w1.1", "k1", 10)
          .acquire("w2.1", "k1", 11, 110, 120, "AFTER_RELEASE")
          .section("k1", 11, "w2.1")
          .release(200, "w2.1", "k1", 11)
          .finish();
  private final List<JsonNode> database = new ArrayList<>();

  /** A worker's fenced transaction: started, then {@code outcome} (or nothing, for null). */
  private SideTableTest tx(String w, String tx, long token, String outcome, Object... more) {
    history.event(50, w, "tx_start", "k1", token, "tx", tx);
    if (!outcome.isEmpty()) {
      history.event(60, w, outcome, "k1", token, prepend("tx", tx, more));
    }
    return this;
  }

  private static Object[] prepend(String name, Object value, Object... more) {
    Object[] all = new Object[more.length + 2];
    all[0] = name;
    all[1] = value;
    System.arraycopy(more, 0, all, 2, more.length);
    return all;
  }

  /** A row of the side log the driver read: a transaction the database committed. */
  private SideTableTest committed(String tx, long token, long value) {
    database.add(
        JSON.valueToTree(
            History.line(
                "t", 0L, "db", "sidelog", "tx", tx, "key", "k1", "token", token, "value", value)));
    return this;
  }

  private SideTableTest counter(long n) {
    database.add(JSON.valueToTree(History.line("t", 0L, "db", "side", "key", "k1", "n", n)));
    return this;
  }

  private Verdict check(Thresholds thresholds) {
    Logs base = history.logs();
    List<DriverEntry> driver = new ArrayList<>(base.driver);
    database.forEach(line -> driver.add(DriverEntry.of(line)));
    return Checker.check(new Logs(base.resource, base.workers, driver), thresholds, false);
  }

  private Verdict check() {
    return check(new Thresholds(0, 0, 0));
  }

  /** Two holders' transactions in turn, each committed and reported. */
  private SideTableTest twoInTurn() {
    return tx("w1.1", "w1.1-1", 10, "tx_commit", "value", 1)
        .tx("w2.1", "w2.1-1", 11, "tx_commit", "value", 2)
        .committed("w1.1-1", 10, 1)
        .committed("w2.1-1", 11, 2);
  }

  private static void assertOnlyP3(Verdict verdict) {
    for (String p : List.of("P1", "P2", "P4", "P5", "P6")) {
      assertThat(verdict.violations(p)).as(p).isZero();
    }
    assertThat(verdict.violations("P3")).isPositive();
    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.FAIL);
  }

  @Test
  void transactionsInTurnThatAllCommittedPass() {
    Verdict verdict = twoInTurn().counter(2).check();

    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
    assertThat(verdict.figures().get("fenced transactions")).contains("committed=2");
  }

  @Test
  void twoTransactionsThatCommittedOneValueOverlappedAndViolateP3() {
    Verdict verdict =
        tx("w1.1", "w1.1-1", 10, "tx_commit", "value", 1)
            .tx("w2.1", "w2.1-1", 11, "tx_commit", "value", 1)
            .committed("w1.1-1", 10, 1)
            .committed("w2.1-1", 11, 1)
            .counter(1)
            .check();

    assertOnlyP3(verdict);
    assertThat(String.join("\n", verdict.report())).contains("an update was lost");
  }

  @Test
  void aStaleHoldersCommitAfterItsSuccessorsViolatesP3() {
    Verdict verdict =
        tx("w2.1", "w2.1-1", 11, "tx_commit", "value", 1)
            .tx("w1.1", "w1.1-1", 10, "tx_commit", "value", 2)
            .committed("w2.1-1", 11, 1)
            .committed("w1.1-1", 10, 2)
            .counter(2)
            .check();

    assertOnlyP3(verdict);
    assertThat(String.join("\n", verdict.report())).contains("a stale holder committed");
  }

  @Test
  void aReportedCommitTheDatabaseLostViolatesP3() {
    Verdict verdict =
        tx("w1.1", "w1.1-1", 10, "tx_commit", "value", 1)
            .tx("w2.1", "w2.1-1", 11, "tx_commit", "value", 2)
            .committed("w1.1-1", 10, 1)
            .counter(1)
            .check();

    assertOnlyP3(verdict);
  }

  @Test
  void aRefusedTransactionTheDatabaseCommittedViolatesP3() {
    Verdict verdict =
        tx("w1.1", "w1.1-1", 10, "tx_commit", "value", 1)
            .tx("w1.1", "w1.1-2", 10, "tx_refused", "reason", "TAKEN_OVER")
            .committed("w1.1-1", 10, 1)
            .committed("w1.1-2", 10, 2)
            .counter(2)
            .check();

    assertOnlyP3(verdict);
  }

  @Test
  void aCounterThatDisagreesWithTheCommitsViolatesP3() {
    Verdict verdict = twoInTurn().counter(3).check();

    assertOnlyP3(verdict);
  }

  @Test
  void aCommitOfUnknownOutcomeIsCountedNotViolated() {
    Verdict verdict =
        twoInTurn()
            .tx("w2.1", "w2.1-2", 11, "tx_failed", "error", "PSQLException", "state", "08006")
            .tx("w2.1", "w2.1-3", 11, "")
            .committed("w2.1-2", 11, 3)
            .committed("w2.1-3", 11, 4)
            .counter(4)
            .check();

    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.PASS);
    assertThat(verdict.figures().get("fenced transactions"))
        .contains("failed(08006)=1", "outcome unknown to the worker=2");
  }

  @Test
  void tooFewCommittedTransactionsAreInsufficient() {
    Verdict verdict = twoInTurn().counter(2).check(new Thresholds(6, 0, 0));

    assertThat(verdict.outcome()).isEqualTo(Verdict.Outcome.INSUFFICIENT);
    assertThat(verdict.report().get(verdict.report().size() - 1))
        .contains("fenced transactions committed 2 < 3");
  }

  @Test
  void anUnreachableServerIsSkippedNeverPassedAndFailsWhereRequired() {
    Verdict skipped = Verdict.unavailable("PostgreSQL at jdbc:x unreachable: refused", false);
    Verdict required = Verdict.unavailable("PostgreSQL at jdbc:x unreachable: refused", true);

    assertThat(skipped.outcome()).isEqualTo(Verdict.Outcome.SKIPPED);
    assertThat(skipped.report())
        .containsExactly("  outcome: SKIPPED: PostgreSQL at jdbc:x unreachable: refused");
    assertThat(required.outcome()).isEqualTo(Verdict.Outcome.FAIL);
  }
}
