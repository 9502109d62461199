/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Workers race acquisitions of one key against fenced transactions of the generations they took:
 * each fenced transaction inserts a row with its generation while it holds the generation row's
 * share lock, so in the order the rows were numbered (at insert time), generations never go down,
 * and no fenced transaction sees a row of a later generation.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FencedTransactionFuzzTest {

  static Stream<Arguments> cases() {
    return Stream.of(TestServer.values())
        .flatMap(
            server ->
                Stream.of("TRANSACTION_READ_COMMITTED", "TRANSACTION_REPEATABLE_READ")
                    .map(isolation -> Arguments.of(server, isolation)));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fencedTransactionsNeverCommitAfterASuccessorsAcquisition(TestServer server, String isolation)
      throws Exception {
    try (TestDatabase db =
            TestDatabase.on(server, config -> config.setTransactionIsolation(isolation));
        JdbcLeaseRepository repository = db.create()) {
      String side = db.sideTable();
      server.run(
          server == TestServer.POSTGRES
              ? "CREATE TABLE " + side + " (id bigserial PRIMARY KEY, n bigint NOT NULL)"
              : "CREATE TABLE "
                  + side
                  + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, n BIGINT NOT NULL) ENGINE=InnoDB");
      repository.save(Samples.firstWrite("fuzz", "w0"));
      AtomicInteger committed = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      AtomicInteger sawLater = new AtomicInteger();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      int workers = 8;
      ExecutorService threads = Executors.newFixedThreadPool(workers);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
          int worker = w;
          done.add(
              threads.submit(
                  () -> {
                    long mine = -1;
                    while (System.nanoTime() < until) {
                      ThreadLocalRandom random = ThreadLocalRandom.current();
                      if (mine < 0 || random.nextInt(10) == 0) {
                        mine = takeOver(repository, worker, mine);
                        continue;
                      }
                      try (Connection c = db.pool.getConnection()) {
                        c.setAutoCommit(false);
                        try {
                          repository.verifyFence(c, "fuzz", mine);
                          try (Statement s = c.createStatement();
                              ResultSet max = s.executeQuery("SELECT max(n) FROM " + side)) {
                            max.next();
                            if (max.getLong(1) > mine) {
                              sawLater.incrementAndGet();
                            }
                          }
                          try (PreparedStatement insert =
                              c.prepareStatement("INSERT INTO " + side + " (n) VALUES (?)")) {
                            insert.setLong(1, mine);
                            insert.executeUpdate();
                          }
                          Thread.sleep(random.nextInt(3));
                          c.commit();
                          committed.incrementAndGet();
                        } catch (LeaseLost lost) {
                          c.rollback();
                          refused.incrementAndGet();
                          mine = -1;
                        } catch (SQLException serialization) {
                          c.rollback();
                          refused.incrementAndGet();
                        } finally {
                          c.setAutoCommit(true);
                        }
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> future : done) {
          future.get(120, TimeUnit.SECONDS);
        }
      } finally {
        threads.shutdownNow();
      }
      List<Long> generations = new ArrayList<>();
      try (Connection c = db.pool.getConnection();
          Statement s = c.createStatement();
          ResultSet rows = s.executeQuery("SELECT n FROM " + side + " ORDER BY id")) {
        while (rows.next()) {
          generations.add(rows.getLong(1));
        }
      }
      assertThat(committed.get()).as("committed (refused %d)", refused.get()).isGreaterThan(20);
      assertThat(sawLater.get()).as("fenced transactions that saw a later generation").isZero();
      assertThat(generations).isSorted();
    }
  }

  private static long takeOver(JdbcLeaseRepository repository, int worker, long mine) {
    LeaseSnapshot current = repository.load("fuzz").orElseThrow();
    LeaseSnapshot next =
        new LeaseSnapshot(
            "fuzz",
            current.generation() + 1,
            current.revision() + 1,
            LeaseState.HELD,
            Samples.unknownHolder("w" + worker),
            Duration.ofSeconds(30),
            Instant.now());
    try {
      repository.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, next, current.revision()));
      return next.generation();
    } catch (RevisionConflict lostRace) {
      return -1;
    }
  }
}
