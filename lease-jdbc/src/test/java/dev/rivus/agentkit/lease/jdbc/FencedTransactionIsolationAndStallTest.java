/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fenced transactions under what an application's pool may set (its isolation level), and a holder
 * that stalls inside one.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FencedTransactionIsolationAndStallTest {

  static Stream<Arguments> isolations() {
    return Stream.of(TestServer.values())
        .flatMap(
            server ->
                Stream.of(
                        "TRANSACTION_READ_UNCOMMITTED",
                        "TRANSACTION_READ_COMMITTED",
                        "TRANSACTION_REPEATABLE_READ",
                        "TRANSACTION_SERIALIZABLE")
                    .map(isolation -> Arguments.of(server, isolation)));
  }

  @ParameterizedTest
  @MethodSource("isolations")
  void renewalsGoOnWhileAFencedTransactionRunsAtAnyIsolationLevel(
      TestServer server, String isolation) throws Exception {
    AtomicInteger renewals = new AtomicInteger();
    AtomicInteger failedRenewals = new AtomicInteger();
    LeaseListener counting =
        new LeaseListener() {
          @Override
          public void renewed(LeaseEvent.Renewed event) {
            renewals.incrementAndGet();
          }

          @Override
          public void renewalFailed(LeaseEvent.RenewalFailed event) {
            failedRenewals.incrementAndGet();
          }
        };
    try (TestDatabase db =
            TestDatabase.on(server, config -> config.setTransactionIsolation(isolation));
        JdbcLeaseRepository repository = db.create();
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(3))
                .heartbeat(Duration.ofMillis(150))
                .listener(counting)
                .build();
        Lease lease = manager.acquire("fenced/isolation")) {
      db.createSideTable();
      CountDownLatch inside = new CountDownLatch(1);
      CountDownLatch finish = new CountDownLatch(1);
      CompletableFuture<Integer> fenced =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return repository.inFencedTransaction(
                      lease,
                      c -> {
                        int n = db.insertSide(c, 1);
                        inside.countDown();
                        await(finish);
                        return n;
                      });
                } catch (SQLException | InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              TestThreads.EACH);
      try {
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        int before = renewals.get();

        Awaitility.await("renewals while a fenced transaction runs at " + isolation)
            .atMost(Duration.ofSeconds(10))
            .until(() -> renewals.get() >= before + 3);
      } finally {
        finish.countDown();
      }
      assertThat(fenced.get(60, TimeUnit.SECONDS)).isEqualTo(1);
      assertThat(lease.isHeld()).isTrue();
    }
  }

  @ParameterizedTest
  @MethodSource("isolations")
  void aStaleHoldersFencedTransactionIsRefusedAtAnyIsolationLevel(
      TestServer server, String isolation) throws Exception {
    try (TestDatabase db =
            TestDatabase.on(server, config -> config.setTransactionIsolation(isolation));
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository successorSide =
            JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseManager manager =
            LeaseManager.builder(repository).ttl(Duration.ofSeconds(60)).build();
        Lease stale = manager.acquire("fenced/stale-isolation")) {
      db.createSideTable();
      FencedTransactionTest.takeOver(successorSide, "fenced/stale-isolation");

      assertThatThrownBy(() -> repository.inFencedTransaction(stale, c -> db.insertSide(c, 1)))
          .isInstanceOf(LeaseLost.class);
      assertThat(db.sideRows()).isZero();
    }
  }

  /**
   * A holder stalls inside a fenced transaction (a frozen process, a VM paused, a GC pause): its
   * session stays open with the generation row's share lock, and its renewals stop. Once the TTL
   * has passed, a successor's {@code acquire(key, maxWait)} must end within its wait budget, with
   * the lease or with {@link LeaseHeld}: the specification says contention never starves a process
   * past its wait budget.
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aSuccessorsAcquireEndsWithinItsWaitBudgetWhileAStalledHolderKeepsAFencedTransactionOpen(
      TestServer server) throws Exception {
    Duration ttl = Duration.ofSeconds(2);
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository successorSide =
            JdbcLeaseRepository.open(db.pool, db.options().build())) {
      db.createSideTable();
      StalledRenewals stalled = new StalledRenewals(repository);
      CountDownLatch inside = new CountDownLatch(1);
      CountDownLatch thaw = new CountDownLatch(1);
      try (LeaseManager holder =
              LeaseManager.builder(stalled).ttl(ttl).heartbeat(Duration.ofMillis(500)).build();
          LeaseManager successor =
              LeaseManager.builder(successorSide)
                  .ttl(ttl)
                  .heartbeat(Duration.ofMillis(500))
                  .build()) {
        Lease lease = holder.acquire("fenced/stalled");
        CompletableFuture<Integer> frozen =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return repository.inFencedTransaction(
                        lease,
                        c -> {
                          int n = db.insertSide(c, 1);
                          stalled.stall(); // the whole process stops: no more renewals either
                          inside.countDown();
                          await(thaw);
                          return n;
                        });
                  } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                },
                TestThreads.EACH);
        try {
          assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
          Duration maxWait = Duration.ofSeconds(6);
          long start = System.nanoTime();
          CompletableFuture<Object> acquire =
              CompletableFuture.supplyAsync(
                  () -> {
                    try (Lease taken = successor.acquire("fenced/stalled", maxWait)) {
                      return taken.generation();
                    } catch (LeaseHeld held) {
                      return held;
                    } catch (InterruptedException e) {
                      throw new IllegalStateException(e);
                    }
                  },
                  TestThreads.EACH);
          Object outcome;
          try {
            outcome = acquire.get(maxWait.toSeconds() + 15, TimeUnit.SECONDS);
          } catch (TimeoutException stuck) {
            throw new AssertionError(
                "acquire(key, "
                    + maxWait
                    + ") still waits after "
                    + (System.nanoTime() - start) / 1_000_000
                    + " ms, for the stalled holder's fenced transaction ("
                    + server.lockWaits(db.table + "_fence")
                    + " session(s) waiting for the generation row)");
          }
          assertThat(outcome).isNotInstanceOf(Throwable.class);
        } catch (java.util.concurrent.ExecutionException failed) {
          throw new AssertionError(
              "acquire(key, maxWait) failed instead of ending with the lease or LeaseHeld",
              failed.getCause());
        } finally {
          thaw.countDown();
        }
        frozen.handle((n, e) -> null).get(60, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Fenced transactions hold a connection of the repository's pool for their whole duration, like
   * key locks; {@link JdbcOptions#fencedTransactionLimit()} bounds them so that they never take the
   * connections renewals need: here as many fenced transactions as the pool has connections are
   * started, one more than the limit lets run.
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void fencedTransactionsNeverTakeTheConnectionsRenewalsNeed(TestServer server) throws Exception {
    int poolSize = 3;
    try (TestDatabase db = TestDatabase.on(server, poolSize, 500);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool,
                db.options().createIfMissing(true).fencedTransactionLimit(poolSize - 1).build());
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(2))
                .heartbeat(Duration.ofMillis(200))
                .build();
        Lease lease = manager.acquire("fenced/pool")) {
      db.createSideTable();
      CountDownLatch inside = new CountDownLatch(poolSize - 1);
      CountDownLatch finish = new CountDownLatch(1);
      List<CompletableFuture<Integer>> fenced = new java.util.ArrayList<>();
      for (int i = 0; i < poolSize; i++) {
        fenced.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return repository.inFencedTransaction(
                        lease,
                        c -> {
                          int n = db.insertSide(c, 1);
                          inside.countDown();
                          await(finish);
                          return n;
                        });
                  } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                },
                TestThreads.EACH));
      }
      try {
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(3_000); // longer than the TTL

        assertThat(lease.isHeld())
            .as("the lease, while %d fenced transactions run on a pool of %d", poolSize, poolSize)
            .isTrue();
      } finally {
        finish.countDown();
        for (CompletableFuture<Integer> each : fenced) {
          each.handle((n, e) -> null).get(60, TimeUnit.SECONDS);
        }
      }
    }
  }

  /** A holder's view of the repository whose renewals stop, as those of a frozen process. */
  private static final class StalledRenewals extends ForwardingLeaseRepository {
    private volatile boolean stalled;

    StalledRenewals(JdbcLeaseRepository delegate) {
      super(delegate);
    }

    void stall() {
      stalled = true;
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      if (stalled) {
        throw new LeaseRepositoryFailure(null, "the holder is frozen (test)", null);
      }
      return super.saveAll(writes);
    }

    @Override
    public void save(LeaseWrite write) {
      if (stalled) {
        throw new LeaseRepositoryFailure(null, "the holder is frozen (test)", null);
      }
      super.save(write);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(90, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the fenced transaction finish");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
