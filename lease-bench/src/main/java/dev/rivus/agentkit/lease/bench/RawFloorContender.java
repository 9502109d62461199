/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The floor a lease cycle on a SQL server is measured against: the two writes of a cycle done raw
 * over one JDBC connection per thread, on a lease table made by {@link JdbcLeaseRepository} (same
 * table, same row, the same twelve columns written): an acquisition, a durable conditional {@code
 * UPDATE ... WHERE key_hash = ? AND revision = ? AND generation < ?} in auto-commit; then a
 * release, {@code ... AND generation = ?}, committed as {@link Release} says. No read before either
 * write.
 */
final class RawFloorContender implements CycleContender {

  /** How the release commits. */
  enum Release {
    /**
     * PostgreSQL, one statement in auto-commit that turns {@code synchronous_commit} off for its
     * own transaction ({@code AND set_config('synchronous_commit', 'off', true) IS NOT NULL}): one
     * round trip, no flush waited for.
     */
    ONE_STATEMENT,
    /**
     * PostgreSQL, an explicit transaction: {@code SET LOCAL synchronous_commit = off} (the driver
     * sends {@code BEGIN} with it), the {@code UPDATE}, {@code COMMIT}: three round trips, no flush
     * waited for.
     */
    SET_LOCAL,
    /** Auto-commit, as durable as the acquisition (MariaDB has no per-transaction setting). */
    DURABLE
  }

  private static final Duration TTL = Duration.ofSeconds(60);
  private static final String SET_RECORD =
      " SET generation = ?, revision = ?, state = ?, holder_host = ?, holder_boot_id = ?,"
          + " holder_pid_namespace = ?, holder_pid = ?, holder_process_start = ?,"
          + " holder_handle_id = ?, ttl_nanos = ?, updated_at_seconds = ?, updated_at_nanos = ?"
          + " WHERE key_hash = ? AND revision = ?";

  private final JdbcServers server;
  private final Release release;
  private final String table = JdbcServers.freshTable("floor");
  private final HikariDataSource pool;
  private final JdbcLeaseRepository repository;

  RawFloorContender(JdbcServers server, Release release) {
    this.server = server;
    this.release = release;
    pool = server.pool("lease-bench-floor");
    repository =
        JdbcLeaseRepository.open(
            pool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
  }

  @Override
  public Cycle forThread(int index) throws SQLException {
    return forThread(index, null);
  }

  /**
   * Prepares one thread's cycle, whose two writes are timed into {@code steps} if it is not null.
   */
  Cycle forThread(int index, @Nullable Steps steps) throws SQLException {
    String key = "bench/" + index;
    HolderIdentity holder =
        new HolderIdentity(
            new ProcessIdentity(
                "bench-host",
                "1c0a7f7e-0f55-4b4e-9d0e-2f3a4b5c6d7e",
                "pid:[4026531836]",
                4242,
                "1733230000123"),
            "5a9f0c1e-7b2d-4c3a-8e6f-0d1c2b3a4f5e");
    LeaseWrite first = LeaseSnapshot.firstAcquisition(key, holder, TTL, Instant.now());
    repository.save(first);
    LeaseWrite released = first.snapshot().release(Instant.now());
    repository.save(released);
    return new RawCycle(server.connect("lease-bench-floor"), key, released.snapshot(), steps);
  }

  @Override
  public void close() throws Exception {
    repository.close();
    pool.close();
    server.drop(table);
  }

  /** The times of the two writes of a cycle; used by one thread. */
  static final class Steps {
    Latencies acquire = new Latencies();
    Latencies release = new Latencies();

    void reset() {
      acquire = new Latencies();
      release = new Latencies();
    }
  }

  /** One thread's connection and statements, prepared once, and the row's last revision. */
  private final class RawCycle implements Cycle {
    private final Connection connection;
    private final PreparedStatement acquire;
    private final PreparedStatement releaseUpdate;
    private final PreparedStatement setLocal;
    private final byte[] keyHash;
    private final HolderIdentity holder;
    private final @Nullable Steps steps;
    private long generation;
    private long revision;

    RawCycle(Connection connection, String key, LeaseSnapshot stored, @Nullable Steps steps)
        throws SQLException {
      this.connection = connection;
      this.steps = steps;
      this.holder = stored.holder();
      this.generation = stored.generation();
      this.revision = stored.revision();
      try (PreparedStatement select =
          connection.prepareStatement("SELECT key_hash FROM " + table + " WHERE lease_key = ?")) {
        select.setBytes(1, key.getBytes(StandardCharsets.UTF_8));
        try (ResultSet row = select.executeQuery()) {
          if (!row.next()) {
            throw new IllegalStateException("no row for " + key + " in " + table);
          }
          keyHash = row.getBytes(1);
        }
      }
      String update = "UPDATE " + table + SET_RECORD;
      acquire = connection.prepareStatement(update + " AND generation < ?");
      releaseUpdate =
          connection.prepareStatement(
              update
                  + " AND generation = ?"
                  + (release == Release.ONE_STATEMENT
                      ? " AND set_config('synchronous_commit', 'off', true) IS NOT NULL"
                      : ""));
      setLocal = connection.prepareStatement("SET LOCAL synchronous_commit = off");
    }

    @Override
    public long run() throws SQLException {
      long start = System.nanoTime();
      write(acquire, generation + 1, "HELD");
      generation++;
      long acquired = System.nanoTime();
      if (release == Release.SET_LOCAL) {
        connection.setAutoCommit(false);
        setLocal.execute();
        write(releaseUpdate, generation, "RELEASED");
        connection.commit();
        connection.setAutoCommit(true);
      } else {
        write(releaseUpdate, generation, "RELEASED");
      }
      if (steps != null) {
        steps.acquire.add(acquired - start);
        steps.release.add(System.nanoTime() - acquired);
      }
      return revision;
    }

    private void write(PreparedStatement update, long newGeneration, String state)
        throws SQLException {
      ProcessIdentity process = holder.process();
      Instant now = Instant.now();
      int i = 1;
      update.setLong(i++, newGeneration);
      update.setLong(i++, revision + 1);
      update.setString(i++, state);
      update.setString(i++, process.host());
      update.setString(i++, process.bootId());
      update.setString(i++, process.pidNamespace());
      update.setLong(i++, process.pid());
      update.setString(i++, process.processStart());
      update.setString(i++, holder.handleId());
      update.setLong(i++, TTL.toNanos());
      update.setLong(i++, now.getEpochSecond());
      update.setInt(i++, now.getNano());
      update.setBytes(i++, keyHash);
      update.setLong(i++, revision);
      update.setLong(i, newGeneration);
      if (update.executeUpdate() != 1) {
        throw new IllegalStateException("the row is not at revision " + revision);
      }
      revision++;
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }
}
