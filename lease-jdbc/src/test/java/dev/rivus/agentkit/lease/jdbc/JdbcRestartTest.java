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
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.createSideTable;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.report;
import static dev.rivus.agentkit.lease.jdbc.FaultSteps.takeOver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.testsupport.PrivateServer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The server restarted under a holder, on a private server of each kind (a subclass) that this
 * class starts ({@link PrivateServer}), stops and starts again on the same port and data directory;
 * the shared servers are never restarted. A restart shorter than the TTL is a transient failure,
 * retried within it; a server down for longer than the TTL costs the holder its lease within the
 * TTL, and a successor takes it over after the TTL once the server is back, with the next
 * generation (the record outlived the restart).
 */
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcRestartTest {

  private static final String KEY = "job:restart";

  /** The kind of server this test starts. */
  abstract TestServer kind();

  private PrivateServer server;

  @BeforeAll
  void startPrivateServer() throws Exception {
    server =
        PrivateServer.startOrSkip(
            kind() == TestServer.POSTGRES
                ? PrivateServer.Kind.POSTGRES
                : PrivateServer.Kind.MARIADB);
  }

  @AfterAll
  void stopPrivateServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void keepsItsLeaseOverARestartShorterThanTheTtl() throws Exception {
    Duration ttl = Duration.ofSeconds(10);
    Duration heartbeat = Duration.ofSeconds(2);
    String table = TestServer.freshTableName();
    try (FaultParty holder = party("holder", table, ttl, heartbeat);
        FaultParty successor = party("successor", table, ttl, heartbeat);
        Lease held = holder.manager.acquire(KEY)) {
      long stoppedAt = System.nanoTime();
      server.stop();
      server.start();
      long startedAt = System.nanoTime();

      assertRenewed(successor, KEY, held, heartbeat); // on new sessions
      assertThat(held.lost()).isNotDone();
      LeaseHeld refused =
          catchThrowableOfType(LeaseHeld.class, () -> successor.manager.acquire(KEY));
      assertThat(refused).as("the successor's attempt while the holder renews").isNotNull();
      assertThat(refused.generation()).isEqualTo(held.generation());
      report(
          kind().product(),
          "quick restart",
          String.format(
              Locale.ROOT,
              "the server was down %.2f s; the lease was kept (TTL %.1f s)",
              (startedAt - stoppedAt) / 1e9,
              ttl.toMillis() / 1e3));
    }
  }

  @Test
  void losesItsLeaseWithinTheTtlWhileTheServerIsDownAndTheSuccessorTakesOverAfterTheRestart()
      throws Exception {
    Duration ttl = Duration.ofSeconds(4);
    Duration heartbeat = Duration.ofSeconds(1);
    String table = TestServer.freshTableName();
    String sideTable = table + "_side";
    try (FaultParty holder = party("holder", table, ttl, heartbeat);
        FaultParty successor = party("successor", table, ttl, heartbeat)) {
      createSideTable(holder, sideTable);
      Lease held = holder.manager.acquire(KEY);
      long stoppedAt;
      long lostAt;
      try {
        server.stop();
        // Counted from when the server is down: a renewal that started during the stop may still
        // have landed, and the holder's TTL runs from its start.
        stoppedAt = System.nanoTime();

        LeaseLost lost = awaitLoss(held, stoppedAt + ttl.toNanos(), "the server's stop");
        lostAt = System.nanoTime();
        assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.EXPIRED);
      } finally {
        server.start();
      }
      long startedAt = System.nanoTime();
      CompletableFuture<FaultSteps.Takeover> takeover =
          takeOver(successor, KEY, held, ttl.multipliedBy(3));
      FaultSteps.Takeover took = assertTakenOver(takeover, held, startedAt, ttl);
      report(
          kind().product(),
          "server down for longer than the TTL",
          String.format(
              Locale.ROOT,
              "the holder's lease was lost %.2f s after the stop; the server was back %.2f s after"
                  + " it, and the successor took over %.2f s after that (TTL %.1f s)",
              (lostAt - stoppedAt) / 1e9,
              (startedAt - stoppedAt) / 1e9,
              (took.atNanos() - startedAt) / 1e9,
              ttl.toMillis() / 1e3));
      assertOldHoldersWorkRefused(holder, held, took, sideTable);
      assertHolderRecovers(holder, successor, took, KEY, heartbeat);
      held.close();
    }
  }

  /** A party on the private server; its pool gives up on a connection soon while it is down. */
  private FaultParty party(String role, String table, Duration ttl, Duration heartbeat) {
    return FaultParty.open(
        role,
        server.url(),
        table,
        ttl,
        heartbeat,
        config -> {
          config.setConnectionTimeout(2_000);
          config.setValidationTimeout(1_000);
        });
  }
}
