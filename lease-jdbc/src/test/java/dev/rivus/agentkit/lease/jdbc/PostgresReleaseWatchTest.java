/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository.KeyWatch;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * PostgreSQL's watch: a release by another repository instance, on another pool as another process
 * would have, wakes a waiter through {@code LISTEN}/{@code NOTIFY}, long before its slow re-check;
 * also for releases written in one batch; and a listening connection that is killed is replaced
 * without losing a release.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PostgresReleaseWatchTest {

  /** The waiter's heartbeat: its re-check without a notice is at least this long. */
  private static final Duration HEARTBEAT = Duration.ofSeconds(10);

  private static final Duration TTL = Duration.ofSeconds(30);

  private TestDatabase db;
  private HikariDataSource otherPool;
  private JdbcLeaseRepository waiting;
  private JdbcLeaseRepository releasing;

  @BeforeEach
  void open() {
    db = TestDatabase.on(TestServer.POSTGRES, 4, 10_000);
    waiting = db.create();
    otherPool = db.server.pool(4, 10_000);
    releasing = JdbcLeaseRepository.open(otherPool, db.options().build());
  }

  @AfterEach
  void close() throws SQLException {
    waiting.close();
    releasing.close();
    otherPool.close();
    db.close();
  }

  @Test
  void aWaiterIsWokenByAnotherInstancesReleaseLongBeforeItsRecheck() throws Exception {
    CountDownLatch attemptFailed = new CountDownLatch(1);
    LeaseListener toldHeld =
        new LeaseListener() {
          @Override
          public void heldByAnother(LeaseEvent.HeldByAnother event) {
            attemptFailed.countDown();
          }
        };
    try (LeaseManager holder =
            LeaseManager.builder(releasing).ttl(TTL).heartbeat(HEARTBEAT).build();
        LeaseManager waiter =
            LeaseManager.builder(waiting)
                .ttl(TTL)
                .heartbeat(HEARTBEAT)
                .listener(toldHeld)
                .build()) {
      Lease held = holder.acquire("handed-over");
      // Without a watch the manager would poll, and hand over this soon too.
      waiting.watchKey("handed-over").orElseThrow().close();
      CompletableFuture<Lease> next =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return waiter.acquire("handed-over", Duration.ofSeconds(40));
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              },
              TestThreads.EACH);
      assertThat(attemptFailed.await(20, TimeUnit.SECONDS)).as("the waiter's first try").isTrue();

      long released = System.nanoTime();
      held.close();
      Lease taken = next.get(20, TimeUnit.SECONDS);
      Duration handOff = Duration.ofNanos(System.nanoTime() - released);

      assertThat(taken.generation()).isGreaterThan(held.generation());
      assertThat(handOff)
          .as("the hand-off, against a re-check every %s and a TTL of %s", HEARTBEAT, TTL)
          .isLessThan(Duration.ofSeconds(5));
      taken.close();
    }
  }

  @Test
  void aReleaseAfterTheListeningConnectionWasKilledStillWakes() throws Exception {
    LeaseWrite first = Samples.firstWrite("killed-listener", "h-1");
    releasing.save(first);
    try (KeyWatch watch = waiting.watchKey("killed-listener").orElseThrow()) {
      assertThat(watch.awaitRelease(Duration.ofSeconds(20)))
          .as("the wake-up of the listening connection's start")
          .isTrue();
      long listener =
          await().atMost(Duration.ofSeconds(20)).until(this::listeners, l -> l.size() == 1).get(0);

      db.server.shared().endSession(listener);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(this::listeners, l -> l.size() == 1 && l.get(0) != listener);
      while (watch.awaitRelease(Duration.ofMillis(200))) {
        // the wake-ups of the drop and of the new connection's start: waiters look again
      }

      releasing.save(first.snapshot().release(Instant.now()));
      assertThat(watch.awaitRelease(Duration.ofSeconds(5)))
          .as("woken by a release after the listening connection was replaced")
          .isTrue();
    }
  }

  @Test
  void releasesSavedInOneBatchWakeTheWatchOfEachKey() throws Exception {
    LeaseWrite one = Samples.firstWrite("batch-one", "h-1");
    LeaseWrite two = Samples.firstWrite("batch-two", "h-2");
    assertThat(releasing.saveAll(List.of(one, two))).allMatch(SaveOutcome::isSaved);
    try (KeyWatch watchOne = waiting.watchKey("batch-one").orElseThrow();
        KeyWatch watchTwo = waiting.watchKey("batch-two").orElseThrow()) {
      await().atMost(Duration.ofSeconds(20)).until(this::listeners, l -> l.size() == 1);
      for (KeyWatch watch : List.of(watchOne, watchTwo)) {
        while (watch.awaitRelease(Duration.ofMillis(200))) {
          // the wake-up of the listening connection's start: waiters look again
        }
      }

      Instant now = Instant.now();
      // The manager's close of many leases: the multi-row release statement, not the one-key one.
      assertThat(
              releasing.saveAll(List.of(one.snapshot().release(now), two.snapshot().release(now))))
          .allMatch(SaveOutcome::isSaved);

      assertThat(watchOne.awaitRelease(Duration.ofSeconds(5))).as("the first key's watch").isTrue();
      assertThat(watchTwo.awaitRelease(Duration.ofSeconds(5))).as("the second key's").isTrue();
    }
  }

  @Test
  void aClosedRepositoryGivesNoWatch() {
    waiting.watchKey("after-close").orElseThrow().close();
    waiting.close();
    assertThat(waiting.watchKey("after-close"))
        .as("a watch nothing would wake: its waiter must poll")
        .isEmpty();
  }

  /** The sessions listening on the table's channel. */
  private List<Long> listeners() throws SQLException {
    try (Connection connection = db.pool.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE query = ? ORDER BY pid")) {
      select.setString(1, "LISTEN " + ReleaseNotices.channel(db.table));
      List<Long> pids = new ArrayList<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          pids.add(rows.getLong(1));
        }
      }
      return pids;
    }
  }
}
