/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The multi-row writes: a batch of acquisitions on PostgreSQL in one statement that skips a key
 * whose generation row a fenced transaction holds, and waits for it alone within the bound; and
 * renewals in multi-row statements across the statements' chunks, each conflicting row told.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BatchWritesTest {

  private static final Duration LONG_TTL = Duration.ofMinutes(5);

  @Test
  void aBatchOfAcquisitionsThatMeetsAFencedTransactionOnOneKeyAcquiresTheOthers() throws Exception {
    try (TestDatabase db = TestDatabase.on(TestServer.POSTGRES);
        JdbcLeaseRepository repository = db.create()) {
      db.createSideTable();
      CountDownLatch finish = new CountDownLatch(1);
      try (LeaseManager manager = LeaseManager.builder(repository).ttl(LONG_TTL).build();
          Lease fencedLease = manager.acquire("batch/fenced")) {
        for (String key : List.of("batch/released-1", "batch/released-2")) {
          manager.acquire(key).close(); // generation rows to lock, free records to take
        }
        CompletableFuture<Integer> fenced =
            db.holdFencedTransaction(repository, fencedLease, finish);
        LeaseSnapshot fencedRecord = repository.load("batch/fenced").orElseThrow();
        Instant now = Instant.now();
        List<LeaseWrite> batch =
            List.of(
                takeover(repository, "batch/released-1", now),
                takeover(repository, "batch/fenced", now), // judged expired: a successor
                Samples.firstWrite("batch/new", "next-new"),
                takeover(repository, "batch/released-2", now));

        long start = System.nanoTime();
        List<SaveOutcome> outcomes = repository.saveAll(batch);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(outcomes.get(1).failure())
            .as("the key whose generation row the fenced transaction holds")
            .isInstanceOf(RevisionConflict.class);
        assertThat(repository.load("batch/fenced")).contains(fencedRecord);
        assertThat(generationRowOf(db, "batch/fenced")).isEqualTo(fencedRecord.generation());
        for (int i : new int[] {0, 2, 3}) {
          LeaseWrite write = batch.get(i);
          assertThat(outcomes.get(i).isSaved()).as("outcome of %s", write.key()).isTrue();
          assertThat(repository.load(write.key())).contains(write.snapshot());
          assertThat(generationRowOf(db, write.key()))
              .as("generation row of %s, raised with its record", write.key())
              .isEqualTo(write.snapshot().generation());
        }
        assertThat(took)
            .as("the batch waited for the fenced key within the bound, once")
            .isLessThan(Duration.ofMillis(Dialect.ACQUISITION_LOCK_WAIT_MILLIS * 4));
        finish.countDown();
        assertThat(fenced.get(30, TimeUnit.SECONDS)).isEqualTo(1);
      } finally {
        finish.countDown();
      }
    }
  }

  /**
   * More rows than one statement takes on MariaDB ({@value MariaDbBatches#ROWS_PER_STATEMENT}),
   * conflicts on each side of the chunks' edges, and renewals beside releases.
   */
  @ParameterizedTest
  @EnumSource(TestServer.class)
  void renewalsAcrossStatementChunksTellEachConflictingRow(TestServer server) throws Exception {
    int count = MariaDbBatches.ROWS_PER_STATEMENT + 50;
    Set<Integer> conflicting =
        Set.of(
            0, MariaDbBatches.ROWS_PER_STATEMENT - 1, MariaDbBatches.ROWS_PER_STATEMENT, count - 1);
    try (TestDatabase db = TestDatabase.on(server);
        JdbcLeaseRepository repository = db.create()) {
      List<LeaseWrite> firsts = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        firsts.add(Samples.firstWrite("chunk/" + i, "h-" + i));
      }
      assertThat(repository.saveAll(firsts)).allMatch(SaveOutcome::isSaved);
      Instant now = Instant.now();
      List<LeaseWrite> batch = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        LeaseSnapshot mine = firsts.get(i).snapshot();
        if (conflicting.contains(i)) {
          repository.save(mine.renewal(now.minusSeconds(1))); // another writer moved first
        }
        batch.add(i % 7 == 3 ? mine.release(now) : mine.renewal(now));
      }

      List<SaveOutcome> outcomes = repository.saveAll(batch);

      for (int i = 0; i < count; i++) {
        assertThat(outcomes.get(i).isSaved())
            .as("outcome of %s", batch.get(i).key())
            .isEqualTo(!conflicting.contains(i));
      }
      assertThat(repository.load("chunk/3")).contains(batch.get(3).snapshot());
      assertThat(repository.load("chunk/" + (count - 2))).contains(batch.get(count - 2).snapshot());
      assertThat(repository.load("chunk/0").orElseThrow().revision())
          .isEqualTo(batch.get(0).snapshot().revision())
          .as("the other writer's record, at the revision the renewal would have written");
      assertThat(repository.load("chunk/0").orElseThrow()).isNotEqualTo(batch.get(0).snapshot());
    }
  }

  private static LeaseWrite takeover(JdbcLeaseRepository repository, String key, Instant now) {
    return repository
        .load(key)
        .orElseThrow()
        .acquisition(Samples.holder("next-" + key), LONG_TTL, now);
  }

  private static long generationRowOf(TestDatabase db, String key) throws SQLException {
    try (Connection connection = db.pool.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT generation FROM " + db.table + "_fence WHERE key_hash = ?")) {
      select.setBytes(1, KeyBytes.hash(KeyBytes.encode(key)));
      try (ResultSet row = select.executeQuery()) {
        assertThat(row.next()).as("a generation row of '%s'", key).isTrue();
        return row.getLong(1);
      }
    }
  }
}
