/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Key locks take connections of the pool only up to their limit, so saves (and so renewals) always
 * find one; waits for a key lock end on interrupt, as the manager interrupts on loss.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KeyLockLimitTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void keyLocksBeyondTheLimitWaitWithoutAConnectionAndEndOnInterrupt(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 4, 10_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(1).build())) {
      LeaseRepository.KeyLock first = repository.lockKey("a");
      Thread waiter =
          new Thread(
              () -> {
                try {
                  repository.lockKey("b").close();
                } catch (InterruptedException expected) {
                  Thread.currentThread().interrupt();
                }
              });
      waiter.start();
      Awaitility.await().until(() -> waiter.getState() == Thread.State.WAITING);
      assertThat(db.pool.getHikariPoolMXBean().getActiveConnections())
          .as("connections in use: the held key lock's only")
          .isEqualTo(1);

      waiter.interrupt();
      waiter.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(waiter.isAlive()).isFalse();
      first.close();
      try (LeaseRepository.KeyLock next = repository.lockKey("b")) {
        assertThat(next.isHeld()).isTrue();
      }
      Awaitility.await().until(() -> db.pool.getHikariPoolMXBean().getActiveConnections() == 0);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void keyLocksWithinTheLimitLeaveConnectionsForSaves(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server, 3, 2_000);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(2).build());
        LeaseRepository.KeyLock a = repository.lockKey("a");
        LeaseRepository.KeyLock b = repository.lockKey("b")) {
      // A third key lock waits for its turn without a connection.
      CompletableFuture<Void> third =
          CompletableFuture.runAsync(
              () -> {
                try {
                  repository.lockKey("c").close();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              TestThreads.EACH);

      repository.save(Samples.firstWrite("saved", "h"));
      assertThat(repository.load("saved")).isPresent();
      assertThat(third).isNotDone();

      a.close();
      third.get(30, TimeUnit.SECONDS);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aPoolTakenByKeyLocksStarvesSaves(TestServer server) throws Exception {
    // What the limit prevents, shown on a limit as large as the pool.
    try (TestDatabase db = TestDatabase.on(server, 2, 500);
        JdbcLeaseRepository repository =
            JdbcLeaseRepository.open(
                db.pool, db.options().createIfMissing(true).keyLockLimit(2).build());
        LeaseRepository.KeyLock a = repository.lockKey("a");
        LeaseRepository.KeyLock b = repository.lockKey("b")) {
      assertThatThrownBy(() -> repository.save(Samples.firstWrite("starved", "h")))
          .isInstanceOf(LeaseRepositoryFailure.class);
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void waitingForAKeyLockEndsWhenTheLeaseIsLost(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create();
        JdbcLeaseRepository staleSide = JdbcLeaseRepository.open(db.pool, db.options().build());
        LeaseManager manager =
            LeaseManager.builder(repository)
                .ttl(Duration.ofSeconds(60))
                .heartbeat(Duration.ofMillis(200))
                .build();
        Lease lease = manager.acquire("fenced/waiting")) {
      // A stale holder's fenced work still holds the key lock.
      try (LeaseRepository.KeyLock stale = staleSide.lockKey("fenced/waiting")) {
        CompletableFuture<Object> fenced =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return lease.runFenced(token -> "ran");
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                },
                TestThreads.EACH);
        Awaitility.await()
            .during(Duration.ofMillis(300))
            .atMost(Duration.ofSeconds(5))
            .until(() -> !fenced.isDone());

        FencedTransactionTest.takeOver(staleSide, "fenced/waiting");

        assertThatThrownBy(() -> fenced.get(30, TimeUnit.SECONDS))
            .isInstanceOf(ExecutionException.class)
            .cause()
            .isInstanceOfSatisfying(
                LeaseLost.class,
                lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER));
        assertThat(stale.isHeld()).isTrue();
      }
    }
  }
}
