/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fenced transactions: work on another table of the lease's database commits only while the lease
 * is the holder's, a successor's acquisition waits for it, and renewals do not. The successor is a
 * write of the next generation through a second repository instance, as another host's manager
 * would make it once the TTL ran out.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FencedTransactionTest {

  private static final Duration LONG_TTL = Duration.ofSeconds(60);

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aFencedTransactionCommitsWhileTheLeaseIsHeld(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire("fenced/commit")) {
      db.createSideTable();

      int inserted = repository.inFencedTransaction(lease, c -> db.insertSide(c, 1));
      Integer fromToken =
          lease.runFenced(token -> repository.inFencedTransaction(token, c -> db.insertSide(c, 2)));

      assertThat(inserted).isEqualTo(1);
      assertThat(fromToken).isEqualTo(1);
      assertThat(db.sideRows()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aStaleHoldersFencedTransactionIsRefusedAndCommitsNothing(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository successorSide =
            JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease stale = manager.acquire("fenced/stale")) {
      db.createSideTable();
      takeOver(successorSide, "fenced/stale");
      assertThat(stale.isHeld()).as("the stale holder has not noticed yet").isTrue();

      assertThatThrownBy(() -> repository.inFencedTransaction(stale, c -> db.insertSide(c, 1)))
          .isInstanceOfSatisfying(
              LeaseLost.class,
              lost -> {
                assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER);
                assertThat(lost.generation()).isEqualTo(stale.generation());
                assertThat(lost.current())
                    .hasValueSatisfying(
                        current ->
                            assertThat(current.generation()).isGreaterThan(stale.generation()));
              });
      assertThat(db.sideRows()).as("rows the refused transaction would have written").isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void workThatFailsCommitsNothing(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire("fenced/fails")) {
      db.createSideTable();

      assertThatThrownBy(
              () ->
                  repository.inFencedTransaction(
                      lease,
                      c -> {
                        db.insertSide(c, 1);
                        throw new SQLException("the work's own failure");
                      }))
          .isInstanceOf(SQLException.class)
          .hasMessage("the work's own failure");
      assertThat(db.sideRows()).isZero();
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aSuccessorsAcquisitionWaitsForARunningFencedTransaction(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository successorSide =
            JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire("fenced/wait")) {
      db.createSideTable();
      CountDownLatch finish = new CountDownLatch(1);
      CompletableFuture<Integer> fenced = db.holdFencedTransaction(repository, lease, finish);

      CompletableFuture<Void> successor =
          CompletableFuture.runAsync(
              () -> takeOver(successorSide, "fenced/wait"), TestThreads.EACH);
      Awaitility.await("the successor's acquisition waiting for the generation row")
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.lockWaits(db.table + "_fence") > 0);
      assertThat(successor).as("the successor, while the fenced transaction runs").isNotDone();

      finish.countDown();
      assertThat(fenced.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      successor.get(30, TimeUnit.SECONDS);
      assertThat(db.sideRows()).as("what the transaction wrote before the successor").isEqualTo(1);
      assertThat(repository.load("fenced/wait").orElseThrow().generation())
          .isGreaterThan(lease.generation());
      assertThatThrownBy(() -> repository.inFencedTransaction(lease, c -> db.insertSide(c, 2)))
          .isInstanceOf(LeaseLost.class);
      assertThat(db.sideRows()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void renewalsGoOnWhileAFencedTransactionRuns(TestServer server) throws Exception {
    AtomicInteger renewals = new AtomicInteger();
    LeaseListener counting =
        new LeaseListener() {
          @Override
          public void renewed(LeaseEvent.Renewed event) {
            renewals.incrementAndGet();
          }
        };
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(3))
                .heartbeat(Duration.ofMillis(150))
                .listener(counting)
                .build();
        Lease lease = manager.acquire("fenced/renewals")) {
      db.createSideTable();
      CountDownLatch finish = new CountDownLatch(1);
      CompletableFuture<Integer> fenced = db.holdFencedTransaction(repository, lease, finish);
      int before = renewals.get();

      Awaitility.await(
              "renewals of the lease while its fenced transaction holds the generation row")
          .atMost(Duration.ofSeconds(20))
          .until(() -> renewals.get() >= before + 3);

      finish.countDown();
      assertThat(fenced.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  /**
   * The token form's transaction is ended by the loss even while a statement blocks (here on a row
   * lock another session holds, which no interrupt would end): the loss aborts its connection, the
   * call throws {@code LeaseLost} with nothing committed, and the server ends the transaction too,
   * so a successor takes the key over while the row lock is still held.
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aLossAbortsAFencedTransactionBlockedInAStatement(TestServer server) throws Exception {
    FakePlatform platform = new FakePlatform();
    String key = "fenced/blocked";
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository successorSide =
            JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseManager manager = platform.managerBuilder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire(key);
        Connection blocker = db.pool.getConnection()) {
      db.createSideTable();
      db.insertSide(blocker, 0);
      // READ COMMITTED: InnoDB then locks the row alone, not the gaps the insert below needs.
      blocker.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      blocker.setAutoCommit(false);
      String update = "UPDATE " + db.sideTable() + " SET n = n + 1 WHERE n = 0";
      try (Statement lockRow = blocker.createStatement()) {
        lockRow.executeUpdate(update); // holds the row's lock until the rollback below
      }
      AtomicReference<Exception> thrown = new AtomicReference<>();
      CompletableFuture<Integer> fenced =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return lease.runFenced(
                      token -> {
                        try {
                          return repository.inFencedTransaction(
                              token,
                              c -> {
                                db.insertSide(c, 5);
                                try (Statement blocked = c.createStatement()) {
                                  return blocked.executeUpdate(update); // waits for the lock
                                }
                              });
                        } catch (SQLException | RuntimeException e) {
                          thrown.set(e);
                          throw e;
                        }
                      });
                } catch (InterruptedException | SQLException | RuntimeException e) {
                  throw new CompletionException(e);
                }
              },
              TestThreads.EACH);
      Awaitility.await("the fenced transaction's statement waiting for the row lock")
          .atMost(Duration.ofSeconds(30))
          .until(() -> db.lockWaits(update) == 1);

      platform.holdLane(LeaseScheduler.Lane.REPOSITORY); // no renewal: the lease expires
      try {
        platform.advance(LONG_TTL.plusSeconds(1));
        assertThat(fenced)
            .as("a loss ends the transaction blocked on the row lock")
            .failsWithin(Duration.ofSeconds(30))
            .withThrowableOfType(ExecutionException.class)
            .havingCause()
            .isInstanceOfSatisfying(
                LeaseLost.class,
                lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED));
        assertThat(thrown.get())
            .as("what inFencedTransaction threw: the loss, with the aborted statement's failure")
            .isInstanceOf(LeaseLost.class)
            .hasCauseInstanceOf(SQLException.class);
        Awaitility.await("a successor's acquisition, the aborted transaction ended on the server")
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(
                () -> {
                  takeOver(successorSide, key);
                  return true;
                });
      } finally {
        blocker.rollback();
        platform.releaseLane(LeaseScheduler.Lane.REPOSITORY);
      }
      assertThat(db.sideRows()).as("only the row committed before the transaction").isEqualTo(1);
    }
  }

  /**
   * A loss that comes while the work runs but touches no statement still refuses the commit: the
   * work returns normally, and the call throws {@code LeaseLost} with nothing committed.
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aLossBeforeTheCommitRefusesItEvenIfTheWorkSawNoFailure(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire("fenced/lost-before-commit")) {
      db.createSideTable();
      LosableToken token = new LosableToken(lease);

      assertThatThrownBy(
              () ->
                  repository.inFencedTransaction(
                      token,
                      c -> {
                        int n = db.insertSide(c, 1);
                        token.lose();
                        return n;
                      }))
          .isInstanceOf(LeaseLost.class);
      assertThat(db.sideRows()).isZero();
      assertThat(token.registered()).as("registrations left after the call").isZero();
    }
  }

  /** A token whose loss the test declares: runs the registered actions at once, on its thread. */
  private static final class LosableToken implements FencingToken {
    private final Lease lease;
    private final List<Runnable> actions = new ArrayList<>(); // guarded by this
    private boolean lost; // guarded by this

    LosableToken(Lease lease) {
      this.lease = lease;
    }

    void lose() {
      List<Runnable> toRun;
      synchronized (this) {
        lost = true;
        toRun = new ArrayList<>(actions);
      }
      toRun.forEach(Runnable::run);
    }

    synchronized int registered() {
      return actions.size();
    }

    @Override
    public String key() {
      return lease.key();
    }

    @Override
    public long generation() {
      return lease.generation();
    }

    @Override
    public synchronized boolean isHeld() {
      return !lost;
    }

    @Override
    public synchronized Registration onLoss(Runnable cancelAction) {
      actions.add(cancelAction);
      return () -> {
        synchronized (this) {
          actions.remove(cancelAction);
        }
      };
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aReleasedLeaseIsRefusedHereAndInTheDatabase(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build()) {
      db.createSideTable();
      Lease lease = manager.acquire("fenced/released");
      lease.close();

      assertThatThrownBy(() -> repository.inFencedTransaction(lease, c -> db.insertSide(c, 1)))
          .isInstanceOfSatisfying(
              LeaseLost.class,
              lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.RELEASED));
      try (Connection connection = db.pool.getConnection()) {
        connection.setAutoCommit(false);
        assertThatThrownBy(
                () -> repository.verifyFence(connection, "fenced/released", lease.generation()))
            .isInstanceOfSatisfying(
                LeaseLost.class,
                lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.RELEASED));
        connection.rollback();
      }
      assertThat(db.sideRows()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void verifyFenceWorksInTheCallersTransactionAndNeedsOne(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
        Lease lease = manager.acquire("fenced/verify");
        Connection connection = db.pool.getConnection()) {
      db.createSideTable();
      assertThatThrownBy(() -> repository.verifyFence(connection, "fenced/verify", 1))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("auto-commit");

      connection.setAutoCommit(false);
      repository.verifyFence(connection, "fenced/verify", lease.generation());
      db.insertSide(connection, 7);
      connection.commit();
      assertThatThrownBy(
              () -> repository.verifyFence(connection, "fenced/verify", lease.generation() - 1))
          .isInstanceOf(LeaseLost.class);
      connection.rollback();
      connection.setAutoCommit(true);
      assertThat(db.sideRows()).isEqualTo(1);
    }
  }

  /** Writes the next generation, as a successor on another host would after the TTL. */
  static void takeOver(LeaseRepository repository, String key) {
    // The holder's renewal may land between the load and the save (found with a 200 ms heartbeat:
    // RevisionConflict); a successor then reads again, as the manager's acquisition does.
    for (int attempt = 1; ; attempt++) {
      LeaseSnapshot current = repository.load(key).orElseThrow();
      LeaseSnapshot next =
          new LeaseSnapshot(
              key,
              current.generation() + 1,
              current.revision() + 1,
              LeaseState.HELD,
              Samples.unknownHolder("successor"),
              LONG_TTL,
              Instant.now());
      try {
        repository.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, next, current.revision()));
        return;
      } catch (RevisionConflict renewedMeanwhile) {
        if (attempt == 10) {
          throw renewedMeanwhile;
        }
      }
    }
  }
}
