/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static dev.rivus.agentkit.lease.jdbc.FaultSteps.assertHolderRecovers;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.assertOldHoldersWorkRefused;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.assertRenewed;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.assertTakenOver;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.awaitLoss;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.awaitLossOfWork;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.onThread;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.report;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.takeOver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariConfig;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.testsupport.TcpProxy;
import java.net.URI;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults between a holder and a shared server, on each server by a subclass: the holder's sessions
 * killed by the server, and the network between the holder and the server cut without closing a
 * connection. The holder reaches the server through a {@link TcpProxy}, which also tells its
 * sessions apart (the server reports the proxy's ports as their client ports); the successor
 * connects directly. Each party is a pool, a repository and a manager of its own, as two processes
 * would have them.
 *
 * <p>What the library promises here (SPEC 2 and 3): a holder that cannot renew treats its lease as
 * lost no later than the TTL after the start of its last successful renewal, by its own clock, even
 * while a JDBC call hangs; an alive holder's lease is taken over only after the TTL, measured by
 * the successor; transient failures (a killed idle session) are retried within the TTL; a key lock
 * lost with its session ends fenced work as loss does.
 */
@Tag("faults")
abstract class JdbcFaultTest {

  private static final Duration TTL = Duration.ofSeconds(4);
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  private static final String KEY = "job:faults";

  /** The server this test runs on. */
  abstract TestServer server();

  /** The driver's URL parameter that bounds a socket read, for {@code timeout}. */
  abstract String socketTimeoutParameter(Duration timeout);

  /**
   * A statement, run in a transaction, after which the server ends the session if the transaction
   * stays idle (its client silent) for {@code timeout}, releasing its locks.
   */
  abstract String idleInTransactionTimeout(Duration timeout);

  private final String table = TestServer.freshTableName();
  private final String sideTable = table + "_side";
  private TcpProxy proxy;

  @BeforeEach
  void startProxy() throws Exception {
    server().requireReachable();
    server().run("CREATE TABLE " + sideTable + " (generation BIGINT NOT NULL)");
    URI address = URI.create(server().url().substring("jdbc:".length()));
    proxy = TcpProxy.to(address.getHost(), address.getPort());
  }

  @AfterEach
  void dropTables() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (server().isReachable()) {
      server().drop(table);
      server().run("DROP TABLE IF EXISTS " + sideTable);
    }
  }

  @Test
  void keepsItsLeaseWhenItsIdleSessionsAreKilled() throws Exception {
    try (FaultParty holder = holder(config -> {});
        FaultParty successor = successor();
        Lease held = holder.manager.acquire(KEY)) {
      List<Long> killed = server().endSessionsFromClientPorts(proxy.serverSidePorts());

      assertThat(killed).as("the holder's sessions, as the server reports them").isNotEmpty();
      assertRenewed(successor, KEY, held, HEARTBEAT); // on new sessions
      assertThat(held.lost()).isNotDone();
      LeaseHeld refused =
          catchThrowableOfType(LeaseHeld.class, () -> successor.manager.acquire(KEY));
      assertThat(refused).as("the successor's attempt while the holder renews").isNotNull();
      assertThat(refused.generation()).isEqualTo(held.generation());
    }
  }

  @Test
  void
      fencedWorkEndsWithTheLeaseWhenTheHoldersSessionsAreKilledAndTheSuccessorTakesOverAfterTheTtl()
          throws Exception {
    try (FaultParty holder = holder(config -> {});
        FaultParty successor = successor()) {
      Lease held = holder.manager.acquire(KEY);
      CountDownLatch working = new CountDownLatch(1);
      CompletableFuture<Object> work =
          onThread(
              "fenced-work",
              () ->
                  held.runFenced(
                      token -> {
                        working.countDown();
                        new CountDownLatch(1).await(); // until the loss interrupts it
                        return "never";
                      }));
      assertThat(working.await(TTL.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      long killedAt = System.nanoTime();
      List<Long> killed = server().endSessionsFromClientPorts(proxy.serverSidePorts());
      CompletableFuture<FaultSteps.Takeover> takeover =
          takeOver(successor, KEY, held, TTL.multipliedBy(3));

      assertThat(killed)
          .as("the holder's sessions, the key lock's among them")
          .hasSizeGreaterThan(1);
      LeaseLost lost = awaitLossOfWork(work, killedAt + TTL.toNanos(), "the kill");
      long lostAt = System.nanoTime();
      assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.KEY_LOCK_LOST);
      assertThat(held.isHeld()).isFalse();
      FaultSteps.Takeover took = assertTakenOver(takeover, held, killedAt, TTL);
      report(
          server().product(),
          "the holder's sessions killed during fenced work",
          killedAt,
          lostAt,
          took,
          TTL);
      assertOldHoldersWorkRefused(holder, held, took, sideTable);
      assertHolderRecovers(holder, successor, took, KEY, HEARTBEAT);
      held.close();
    }
  }

  @Test
  void losesItsLeaseWithinTheTtlWhileTheNetworkIsCutAndARenewalHangsAndRecoversWhenItHeals()
      throws Exception {
    try (FaultParty holder = holder(config -> {});
        FaultParty successor = successor()) {
      Lease held = holder.manager.acquire(KEY);
      long cutAt = cutBeforeTheNextRenewal(holder);
      try {
        CompletableFuture<FaultSteps.Takeover> takeover =
            takeOver(successor, KEY, held, TTL.multipliedBy(3));

        LeaseLost lost = awaitLoss(held, cutAt + TTL.toNanos(), "the cut");
        long lostAt = System.nanoTime();
        assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
        assertThat(holder.poolCounts().getActiveConnections())
            .as("connections lent out when the lease was lost: the renewal still hangs")
            .isPositive();
        FaultSteps.Takeover took = assertTakenOver(takeover, held, cutAt, TTL);
        report(server().product(), "network cut, a renewal hanging", cutAt, lostAt, took, TTL);

        proxy.thaw(); // the renewal that hung reaches the server now, and finds the successor's
        // record
        assertOldHoldersWorkRefused(holder, held, took, sideTable);
        assertHolderRecovers(holder, successor, took, KEY, HEARTBEAT);
        held.close();
      } finally {
        proxy.thaw(); // so that a failure leaves nothing hanging for the leak checks
      }
    }
  }

  @Test
  void recoversFromACutThatLeftItsConnectionsDeadOnceTheDriversSocketTimeoutEndsTheHungRenewal()
      throws Exception {
    // Longer than the TTL: the loss must not wait for it. Without it the renewal would hang for
    // good
    // on a connection nobody closes, and no later renewal of this manager would start (the renewal
    // rounds of a manager never overlap).
    Duration socketTimeout = TTL.plusSeconds(1);
    try (FaultParty holder =
            holder(
                config -> {
                  String url = config.getJdbcUrl();
                  config.setJdbcUrl(
                      url
                          + (url.contains("?") ? "&" : "?")
                          + socketTimeoutParameter(socketTimeout));
                  config.setValidationTimeout(1_000);
                });
        FaultParty successor = successor()) {
      Lease held = holder.manager.acquire(KEY);
      long cutAt = cutBeforeTheNextRenewal(holder);
      try {
        LeaseLost lost = awaitLoss(held, cutAt + TTL.toNanos(), "the cut");
        long lostAt = System.nanoTime();
        assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
        assertThat(holder.poolCounts().getActiveConnections())
            .as("connections lent out when the lease was lost: the renewal still hangs")
            .isPositive();

        proxy.abandonConnections();
        try (Lease next = holder.manager.acquire(KEY + ":next")) {
          assertRenewed(successor, KEY + ":next", next, HEARTBEAT);
          report(
              server().product(),
              "network cut, connections dead after it",
              String.format(
                  Locale.ROOT,
                  "lost %.2f s after the cut (TTL %.1f s); renewals again %.2f s after the cut"
                      + " (socketTimeout %.1f s)",
                  (lostAt - cutAt) / 1e9,
                  TTL.toMillis() / 1e3,
                  (System.nanoTime() - cutAt) / 1e9,
                  socketTimeout.toMillis() / 1e3));
        }
        held.close(); // its record is still the holder's: released now that the network is back
        assertThat(successor.record(KEY).isHeld())
            .as("the lost lease's record after close")
            .isFalse();
      } finally {
        proxy.abandonConnections(); // so that a failure leaves nothing hanging for the leak checks
      }
    }
  }

  @Test
  void
      aSuccessorTakesOverAfterTheTtlWhenTheNetworkIsCutDuringAFencedTransactionThatBoundsItsIdleTime()
          throws Exception {
    cutDuringAFencedTransaction(idleInTransactionTimeout(Duration.ofSeconds(2)));
  }

  /**
   * The promise, "another holder takes over after the TTL", for a cut during a fenced
   * transaction with the servers' default settings: not met yet. The old holder's transaction stays
   * open on the server, which does not notice the client is gone (PostgreSQL's {@code
   * idle_in_transaction_session_timeout} and {@code lock_timeout} are off, TCP keepalive starts
   * after 2 h; MariaDB's {@code idle_transaction_timeout} is off, {@code wait_timeout} is 8 h), and
   * keeps the share lock on the key's generation row (FencedTransactions.checkFence) that the
   * successor's acquisition must wait for: the successor blocks in its acquisition statement, past
   * its own {@code maxWait}, until the cut heals or the server drops the session. Safe (the old
   * transaction, if it commits, commits before the successor's acquisition), but no takeover.
   * Proposed fix: the fenced transaction bounds its own idle time on the server (PostgreSQL: {@code
   * set_config('idle_in_transaction_session_timeout', …, true)} with the generation row's lock;
   * MariaDB: {@code idle_transaction_timeout} for the session, reset after), as the test above does
   * in its work; and acquisitions bound their lock wait.
   */
  @Test
  void aSuccessorTakesOverAfterTheTtlWhenTheNetworkIsCutDuringAFencedTransaction()
      throws Exception {
    cutDuringAFencedTransaction(null);
  }

  /**
   * Cuts the network while the holder's fenced transaction is open (its work done, the commit
   * hanging): the holder loses the lease within the TTL, the successor takes over after the TTL,
   * and nothing of the old transaction is committed.
   */
  private void cutDuringAFencedTransaction(@Nullable String boundIdleTime) throws Exception {
    try (FaultParty holder = holder(config -> {});
        FaultParty successor = successor()) {
      Lease held = holder.manager.acquire(KEY);
      AtomicLong cutAt = new AtomicLong();
      CountDownLatch cut = new CountDownLatch(1);
      CompletableFuture<Integer> transaction =
          onThread(
              "fenced-transaction",
              () ->
                  holder.repository.inFencedTransaction(
                      held,
                      connection -> {
                        try (Statement statement = connection.createStatement()) {
                          if (boundIdleTime != null) {
                            statement.execute(boundIdleTime);
                          }
                          statement.executeUpdate(
                              "INSERT INTO "
                                  + sideTable
                                  + " (generation) VALUES ("
                                  + held.generation()
                                  + ")");
                        }
                        proxy.freeze(); // the commit that follows hangs
                        cutAt.set(System.nanoTime());
                        cut.countDown();
                        return 1;
                      }));
      try {
        assertThat(cut.await(TTL.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        CompletableFuture<FaultSteps.Takeover> takeover =
            takeOver(successor, KEY, held, TTL.multipliedBy(3));

        LeaseLost lost = awaitLoss(held, cutAt.get() + TTL.toNanos(), "the cut");
        long lostAt = System.nanoTime();
        assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
        FaultSteps.Takeover took;
        try {
          took = assertTakenOver(takeover, held, cutAt.get(), TTL);
        } catch (TimeoutException stuck) {
          throw new AssertionError(
              "no takeover long after the TTL; sessions waiting for a row lock in a statement on"
                  + " the generation table: "
                  + server().lockWaits(table + "_fence"),
              stuck);
        }
        report(
            server().product(),
            "network cut during a fenced transaction",
            cutAt.get(),
            lostAt,
            took,
            TTL);

        proxy.thaw();
        assertThat(transaction)
            .as("the old holder's fenced transaction, once the network is back")
            .failsWithin(Duration.ofSeconds(30));
        assertOldHoldersWorkRefused(holder, held, took, sideTable);
      } finally {
        proxy.thaw();
        transaction.handle((result, failure) -> null).get(30, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * SPEC 4: "Waiting for the fence stops when the lease is lost", on a cut network too. The key
   * lock's attempt ({@code pg_try_advisory_lock} / {@code GET_LOCK}) waits in a socket read that an
   * interrupt does not end; the repository's network timeout ({@link JdbcOptions#networkTimeout()},
   * here a little longer than the TTL) ends it, and the attempt, seeing the loss's interrupt, ends
   * the wait as the loss. The work never starts.
   */
  @Test
  void waitingForTheKeyLockEndsWithTheLossWhileTheNetworkIsCut() throws Exception {
    Duration networkTimeout = TTL;
    String url = server().url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
    try (FaultParty holder =
        FaultParty.open(
            "holder",
            url,
            table,
            TTL,
            HEARTBEAT,
            config -> {},
            options -> options.networkTimeout(networkTimeout))) {
      Lease held = holder.manager.acquire(KEY);
      AtomicBoolean ran = new AtomicBoolean();
      AtomicLong cutAt = new AtomicLong();
      holder.onNextConnection(
          thread -> thread.getName().equals("fenced-work"),
          () -> {
            cutAt.set(System.nanoTime());
            proxy.freeze();
          });
      CompletableFuture<Object> work =
          onThread(
              "fenced-work",
              () ->
                  held.runFenced(
                      token -> {
                        ran.set(true);
                        return "ran";
                      }));
      try {
        awaitLoss(held, System.nanoTime() + TTL.toNanos() + HEARTBEAT.toNanos(), "the cut");
        LeaseLost ended =
            awaitLossOfWork(
                work,
                cutAt.get() + networkTimeout.toNanos() + HEARTBEAT.toNanos(),
                "the wait for the key lock");
        assertThat(ended.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
        assertThat(ran).as("the fenced work ran").isFalse();
      } finally {
        proxy.thaw();
        held.close();
      }
    }
  }

  /**
   * Fenced work that ends with the loss while the network is cut does not wait for its key lock's
   * release, which cannot reach the server before the heal or the network timeout (here far longer
   * than the test waits): the key lock is abandoned (its connection aborted), and {@code runFenced}
   * reports the loss at once.
   */
  @Test
  void fencedWorkEndedByTheLossDoesNotWaitToReleaseItsKeyLockOverACutNetwork() throws Exception {
    Duration networkTimeout = Duration.ofMinutes(2);
    String url = server().url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
    try (FaultParty holder =
        FaultParty.open(
            "holder",
            url,
            table,
            TTL,
            HEARTBEAT,
            config -> {},
            options -> options.networkTimeout(networkTimeout))) {
      Lease held = holder.manager.acquire(KEY);
      CountDownLatch inside = new CountDownLatch(1);
      CompletableFuture<Object> work =
          onThread(
              "fenced-work",
              () ->
                  held.runFenced(
                      token -> {
                        inside.countDown();
                        Thread.sleep(networkTimeout.toMillis()); // until the loss interrupts it
                        return "slept";
                      }));
      assertThat(inside.await(30, TimeUnit.SECONDS)).as("the fenced work started").isTrue();
      proxy.freeze();
      try {
        awaitLoss(held, System.nanoTime() + TTL.toNanos() + HEARTBEAT.toNanos(), "the cut");
        LeaseLost ended =
            awaitLossOfWork(
                work, System.nanoTime() + HEARTBEAT.toNanos() * 3, "the cut, after the loss");
        // Expired, or its key lock found dead first by a renewal round's check.
        assertThat(ended.reason()).isIn(LeaseLost.Reason.EXPIRED, LeaseLost.Reason.KEY_LOCK_LOST);
      } finally {
        proxy.thaw();
        held.close();
      }
    }
  }

  /**
   * Issue 24: a holder cut off from the server inside {@code runFenced} (the network cut, nothing
   * closed, the cut outlasting the successor's wait) blocks the key for at most its TTL, its grace
   * and the repository's margin after it fell silent: the server ends its key lock's silent
   * session, and the successor's fenced work runs. Before, the session (and its lock) lived on
   * until the server's TCP stack gave up on it, hours later.
   */
  @Test
  void aHolderCutOffInsideFencedWorkBlocksTheKeyOnlyUntilTheServerEndsItsSilentKeyLock()
      throws Exception {
    Duration ttl = Duration.ofSeconds(3);
    Duration grace = Duration.ofSeconds(1);
    Duration bound = ttl.plus(grace).plus(JdbcLeaseRepository.KEY_LOCK_SILENCE_MARGIN);
    Duration successorsWait = bound.plusSeconds(20);
    String url = server().url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
    try (FaultParty holder =
            FaultParty.open(
                "holder", url, table, ttl, HEARTBEAT, grace, config -> {}, options -> options);
        FaultParty successor =
            FaultParty.open(
                "successor",
                server().url(),
                table,
                ttl,
                HEARTBEAT,
                grace,
                config -> {},
                options -> options)) {
      Lease held = holder.manager.acquire(KEY);
      CountDownLatch inside = new CountDownLatch(1);
      CompletableFuture<Object> work =
          onThread(
              "fenced-work",
              () ->
                  held.runFenced(
                      token -> {
                        inside.countDown();
                        new CountDownLatch(1).await(); // until the loss interrupts it
                        return "never";
                      }));
      assertThat(inside.await(30, TimeUnit.SECONDS)).as("the fenced work started").isTrue();
      proxy.freeze();
      long cutAt = System.nanoTime();
      try {
        Lease next = successor.manager.acquire(KEY, successorsWait);
        CompletableFuture<Long> successorsWork =
            onThread("successor-work", () -> next.runFenced(token -> System.nanoTime()));
        long ranAt;
        try {
          ranAt = successorsWork.get(successorsWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException blocked) {
          throw new AssertionError(
              "the successor's fenced work did not start within "
                  + successorsWait
                  + " of the cut: the cut-off holder's key lock still holds the key",
              blocked);
        }
        double seconds = (ranAt - cutAt) / 1e9;
        report(
            server().product(),
            "holder cut off inside runFenced",
            String.format(
                Locale.ROOT,
                "successor's fenced work ran %.2f s after the cut (TTL %.0f s + grace %.0f s +"
                    + " margin %.0f s = %.0f s)",
                seconds,
                ttl.toMillis() / 1e3,
                grace.toMillis() / 1e3,
                JdbcLeaseRepository.KEY_LOCK_SILENCE_MARGIN.toMillis() / 1e3,
                bound.toMillis() / 1e3));
        // The bound counts from the holder's last word, at or before the cut; the rest is the
        // server's timer and the successor's polling, given room on a loaded machine.
        assertThat(seconds).as("seconds from the cut").isLessThan(bound.getSeconds() + 5.0);
        assertThat(work).as("the cut-off holder's work").isDone();
        assertThat(held.isHeld()).isFalse();
        next.close();
      } finally {
        proxy.thaw();
        held.close();
      }
    }
  }

  /**
   * Freezes the proxy as soon as the holder's next renewal has its connection, so that the renewal
   * itself hangs (not only HikariCP's validation of an idle connection, which its validation
   * timeout bounds); returns when.
   */
  private long cutBeforeTheNextRenewal(FaultParty holder) throws InterruptedException {
    AtomicLong cutAt = new AtomicLong();
    CountDownLatch cut = new CountDownLatch(1);
    holder.onNextConnection(
        () -> {
          proxy.freeze();
          cutAt.set(System.nanoTime());
          cut.countDown();
        });
    assertThat(cut.await(HEARTBEAT.multipliedBy(2).plus(TTL).toMillis(), TimeUnit.MILLISECONDS))
        .as("the holder's next renewal took a connection")
        .isTrue();
    return cutAt.get();
  }

  private FaultParty holder(Consumer<HikariConfig> poolSettings) {
    String url = server().url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
    return FaultParty.open("holder", url, table, TTL, HEARTBEAT, poolSettings);
  }

  private FaultParty successor() {
    return FaultParty.open("successor", server().url(), table, TTL, HEARTBEAT, config -> {});
  }
}
