/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor a lease cycle on SQLite is measured against: two raw sqlite-jdbc compare-and-set
 * transactions ({@code BEGIN IMMEDIATE; SELECT; UPDATE; COMMIT}) on a lease database made by {@link
 * SqliteLeaseRepository} (same file, same table, same row), in WAL mode.
 *
 * <ul>
 *   <li>{@code FULL_NORMAL}: the first transaction on a {@code synchronous=FULL} connection, the
 *       second on a {@code synchronous=NORMAL} one: the durability of the repository's default (the
 *       acquisition synced, the release not).
 *   <li>{@code FULL_FULL}: both on a {@code FULL} connection: the durability of {@code
 *       syncEveryWrite}.
 * </ul>
 *
 * <p>Run (from the repository root):
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -jar lease-bench/target/benchmarks.jar 'RawSqliteFloorBenchmark|LeaseCycleBenchmark' \
 *     -wi 3 -w 2s -i 5 -r 3s -f 1 -rf json -rff lease-bench/target/results.json
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class RawSqliteFloorBenchmark {

  /** Sync levels of the two transactions. */
  @Param({"FULL_NORMAL", "FULL_FULL"})
  public String sync;

  private Path dir;
  private CompareAndSet first;
  private CompareAndSet second;
  private long revision = 1;

  /**
   * Creates the lease database with one record, and opens the raw connections.
   *
   * @throws Exception if the database cannot be made
   */
  @Setup(Level.Trial)
  public void open() throws Exception {
    dir = Files.createTempDirectory("lease-bench-floor");
    Path db = dir.resolve("leases.db");
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      HolderIdentity holder =
          new HolderIdentity(new ProcessIdentity("bench", null, null, 1, null), "h");
      repository.save(
          LeaseSnapshot.firstAcquisition("bench", holder, Duration.ofSeconds(60), Instant.now()));
    }
    first = new CompareAndSet(db, "FULL");
    second = "FULL_FULL".equals(sync) ? first : new CompareAndSet(db, "NORMAL");
  }

  /**
   * Two compare-and-set transactions, as an acquisition and a release write.
   *
   * @return the last revision written
   * @throws SQLException if SQLite fails
   */
  @Benchmark
  public long twoCompareAndSetTransactions() throws SQLException {
    revision = first.run(revision, 1);
    revision = second.run(revision, 0);
    return revision;
  }

  /**
   * One connection at one sync level, with its statements prepared once, as the repository does.
   */
  private static final class CompareAndSet {
    private final Connection connection;
    private final PreparedStatement begin;
    private final PreparedStatement select;
    private final PreparedStatement update;
    private final PreparedStatement commit;
    private final byte[] key = "bench".getBytes(StandardCharsets.UTF_8);

    CompareAndSet(Path db, String synchronous) throws SQLException {
      connection = DriverManager.getConnection("jdbc:sqlite:" + db);
      try (Statement statement = connection.createStatement()) {
        statement.execute("PRAGMA busy_timeout = 2");
        statement.execute("PRAGMA synchronous = " + synchronous);
      }
      begin = connection.prepareStatement("BEGIN IMMEDIATE");
      select = connection.prepareStatement("SELECT revision FROM lease WHERE lease_key = ?");
      update =
          connection.prepareStatement(
              "UPDATE lease SET revision = ?, generation = generation + ?, state = ?,"
                  + " updated_at_seconds = ?, updated_at_nanos = ? WHERE lease_key = ?");
      commit = connection.prepareStatement("COMMIT");
    }

    long run(long expected, int generationStep) throws SQLException {
      begin.execute();
      select.setBytes(1, key);
      try (ResultSet row = select.executeQuery()) {
        if (!row.next() || row.getLong(1) != expected) {
          throw new IllegalStateException("the record is not at revision " + expected);
        }
      }
      Instant now = Instant.now();
      update.setLong(1, expected + 1);
      update.setLong(2, generationStep);
      update.setString(3, generationStep == 1 ? "HELD" : "RELEASED");
      update.setLong(4, now.getEpochSecond());
      update.setLong(5, now.getNano());
      update.setBytes(6, key);
      update.executeUpdate();
      commit.execute();
      return expected + 1;
    }

    void close() throws SQLException {
      connection.close();
    }
  }

  /**
   * Closes the connections and deletes the database.
   *
   * @throws Exception if closing fails
   */
  @TearDown(Level.Trial)
  public void close() throws Exception {
    if (second != first) {
      second.close();
    }
    first.close();
    TempDirs.delete(dir);
  }
}
