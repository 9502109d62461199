/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The steps every fault scenario shares: the holder's loss within the TTL, the successor's takeover
 * after it, the old holder's work refused, the holder's recovery; and the figures.
 */
final class FaultSteps {

  private FaultSteps() {}

  /**
   * What the successor saw when its acquisition returned: its lease, when (on {@link
   * System#nanoTime()}), and whether the old holder still believed it held the lease at that
   * moment.
   */
  record Takeover(FaultParty party, Lease lease, long atNanos, boolean oldHolderStillHeld) {}

  /** Runs {@code task} on a thread of its own, named {@code name}. */
  static <T> CompletableFuture<T> onThread(String name, Callable<T> task) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                result.complete(task.call());
              } catch (Throwable e) {
                result.completeExceptionally(e);
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return result;
  }

  /**
   * Starts the successor's waiting acquisition of {@code key}, at most {@code maxWait}, on a thread
   * of its own.
   */
  static CompletableFuture<Takeover> takeOver(
      FaultParty successor, String key, Lease old, Duration maxWait) {
    return onThread(
        "takeover-" + successor.name,
        () -> {
          Lease lease = successor.manager.acquire(key, maxWait);
          long at = System.nanoTime();
          return new Takeover(successor, lease, at, old.isHeld());
        });
  }

  /**
   * Waits for {@code lease} to be lost, failing if that comes after {@code deadlineNanos} (on
   * {@link System#nanoTime()}); returns the loss.
   */
  static LeaseLost awaitLoss(Lease lease, long deadlineNanos, String fault) throws Exception {
    try {
      return lease
          .lost()
          .toCompletableFuture()
          .get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException late) {
      throw new AssertionError(
          "the holder still held " + lease + " a TTL after " + fault + " began", late);
    }
  }

  /** Waits for work that must end with the loss of its lease, by {@code deadlineNanos}. */
  static LeaseLost awaitLossOfWork(CompletableFuture<?> work, long deadlineNanos, String fault)
      throws Exception {
    try {
      Object result =
          work.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
      throw new AssertionError("the fenced work returned " + result + " during " + fault);
    } catch (TimeoutException late) {
      throw new AssertionError(
          "the fenced work had not ended with the loss by its deadline, after " + fault, late);
    } catch (ExecutionException ended) {
      assertThat(ended.getCause()).isInstanceOf(LeaseLost.class);
      return (LeaseLost) ended.getCause();
    }
  }

  /**
   * The successor took the lease over: not before a TTL had passed since {@code notBeforeNanos}
   * (when it began to look, or when the fault began, whichever is later), with the next generation,
   * and the old holder had given up already.
   */
  static Takeover assertTakenOver(
      CompletableFuture<Takeover> pending, Lease old, long notBeforeNanos, Duration ttl)
      throws Exception {
    Takeover takeover = pending.get(3 * ttl.toMillis() + 10_000, TimeUnit.MILLISECONDS);
    assertThat(Duration.ofNanos(takeover.atNanos() - notBeforeNanos))
        .as("the successor waits out the TTL: the holder is alive, only cut off")
        .isGreaterThanOrEqualTo(ttl);
    assertThat(takeover.oldHolderStillHeld())
        .as("the old holder gave up its lease before the successor got it")
        .isFalse();
    assertThat(takeover.lease().generation())
        .as("the successor's generation")
        .isGreaterThan(old.generation());
    return takeover;
  }

  /**
   * Creates the side table fenced transactions write to in the tests: one row per transaction, with
   * the generation it ran under.
   */
  static void createSideTable(FaultParty party, String sideTable) throws SQLException {
    try (Connection connection = party.pool.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + sideTable + " (generation BIGINT NOT NULL)");
    }
  }

  /**
   * After the takeover, the old holder's work under its lost lease is refused and nothing of it is
   * committed: its fenced work does not run; its fenced transaction throws {@link LeaseLost}; and
   * the database itself refuses its generation ({@code verifyFence} in a transaction of its own, on
   * the old holder's pool), while the successor's fenced transaction commits.
   */
  static void assertOldHoldersWorkRefused(
      FaultParty holder, Lease old, Takeover takeover, String sideTable) throws Exception {
    AtomicBoolean ran = new AtomicBoolean();
    assertThatThrownBy(
            () ->
                old.runFenced(
                    token -> {
                      ran.set(true);
                      return null;
                    }))
        .isInstanceOf(LeaseLost.class);
    assertThat(ran).as("the old holder's fenced work ran").isFalse();

    assertThatThrownBy(
            () -> holder.repository.inFencedTransaction(old, insertGeneration(sideTable, old)))
        .isInstanceOf(LeaseLost.class);
    try (Connection connection = holder.pool.getConnection()) {
      connection.setAutoCommit(false);
      LeaseLost refused =
          catchThrowableOfType(
              LeaseLost.class,
              () -> holder.repository.verifyFence(connection, old.key(), old.generation()));
      connection.rollback();
      assertThat(refused).as("the database's answer to the old generation").isNotNull();
      assertThat(refused.reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER);
    }
    Lease successor = takeover.lease();
    takeover
        .party()
        .repository
        .inFencedTransaction(successor, insertGeneration(sideTable, successor));
    assertThat(rowsOf(holder, sideTable, old.generation()))
        .as("rows the old holder's fenced transactions committed")
        .isZero();
    assertThat(rowsOf(holder, sideTable, successor.generation()))
        .as("rows the successor's fenced transaction committed")
        .isEqualTo(1);
  }

  private static FencedTransaction<Integer> insertGeneration(String sideTable, Lease lease) {
    return connection -> {
      try (PreparedStatement insert =
          connection.prepareStatement("INSERT INTO " + sideTable + " (generation) VALUES (?)")) {
        insert.setLong(1, lease.generation());
        return insert.executeUpdate();
      }
    };
  }

  static long rowsOf(FaultParty reader, String sideTable, long generation) throws SQLException {
    try (Connection connection = reader.pool.getConnection();
        PreparedStatement count =
            connection.prepareStatement(
                "SELECT count(*) FROM " + sideTable + " WHERE generation = ?")) {
      count.setLong(1, generation);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  /**
   * The old holder's manager works again: it sees the successor's lease, gets the lease once the
   * successor releases it, and keeps it (a renewal lands).
   */
  static void assertHolderRecovers(
      FaultParty holder, FaultParty successor, Takeover takeover, String key, Duration heartbeat)
      throws Exception {
    LeaseHeld held = catchThrowableOfType(LeaseHeld.class, () -> holder.manager.acquire(key));
    assertThat(held).as("the old holder's manager reads the successor's record").isNotNull();
    assertThat(held.generation()).isEqualTo(takeover.lease().generation());

    takeover.lease().close();
    try (Lease again = holder.manager.acquire(key)) {
      assertThat(holder.managerThreads())
          .as("threads named for the manager (what the leak check looks for)")
          .isNotEmpty();
      assertThat(again.generation()).isGreaterThan(takeover.lease().generation());
      assertRenewed(successor, key, again, heartbeat);
      long fencedGeneration = again.runFenced(FencingToken::generation);
      assertThat(fencedGeneration)
          .as("fenced work under the new lease, with a key lock on a new session")
          .isEqualTo(again.generation());
    }
  }

  /**
   * A renewal of {@code lease} lands, as read by {@code reader}: the manager's renewal rounds work
   * (one that hangs would keep every later one from starting).
   */
  static void assertRenewed(FaultParty reader, String key, Lease lease, Duration heartbeat) {
    // The reader's pooled connections may have died with the fault: its reads are retried.
    long from =
        await("a first read of the record after the fault")
            .atMost(heartbeat.multipliedBy(3).plusSeconds(5))
            .ignoreExceptionsInstanceOf(dev.rivus.agentkit.lease.LeaseRepositoryFailure.class)
            .until(() -> reader.record(key).revision(), revision -> true);
    await("a renewal of " + lease)
        .atMost(heartbeat.multipliedBy(3).plusSeconds(5))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptionsInstanceOf(dev.rivus.agentkit.lease.LeaseRepositoryFailure.class)
        .until(() -> reader.record(key).revision() > from);
    assertThat(lease.isHeld()).isTrue();
    assertThat(reader.record(key).generation()).isEqualTo(lease.generation());
  }

  /** Prints the scenario's figures, to the test's output. */
  static void report(
      String server,
      String fault,
      long faultAtNanos,
      long lostAtNanos,
      Takeover takeover,
      Duration ttl) {
    System.out.printf(
        Locale.ROOT,
        "[fault figures] %s, %s: the holder's lease was lost %.2f s after the fault began, the"
            + " successor took over %.2f s after it (TTL %.1f s)%n",
        server,
        fault,
        (lostAtNanos - faultAtNanos) / 1e9,
        (takeover.atNanos() - faultAtNanos) / 1e9,
        ttl.toMillis() / 1e3);
  }

  static void report(String server, String fault, String figures) {
    System.out.printf(Locale.ROOT, "[fault figures] %s, %s: %s%n", server, fault, figures);
  }
}
