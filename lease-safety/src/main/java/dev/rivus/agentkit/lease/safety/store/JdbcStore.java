/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * A worker's repository in a database phase: a {@link JdbcLeaseRepository} on a HikariCP pool of
 * its own, on the phase's fresh table, reached through the worker slot's TCP proxy (so that the
 * driver can cut its network alone). Closing it closes the pool. The driver writes where to connect
 * in the phase's {@code jdbc.properties} ({@link #describe}); every life of a slot reads it again.
 *
 * <p>Thread-safe: the repository and the pool are.
 */
public final class JdbcStore extends ForwardingLeaseRepository {

  static final String FILE = "jdbc.properties";

  /**
   * Four connections: the heartbeat's, a key lock's ({@code runFenced}), a fenced transaction's,
   * and one for a load or acquisition beside them.
   */
  private static final int POOL_SIZE = 4;

  /** How long a starting worker retries opening the table while the server does not answer. */
  private static final Duration OPEN_PATIENCE = Duration.ofSeconds(60);

  private final JdbcLeaseRepository jdbc;
  private final HikariDataSource pool;
  private final Database database;
  private final String table;

  private JdbcStore(
      JdbcLeaseRepository jdbc, HikariDataSource pool, Database database, String table) {
    super(jdbc);
    this.jdbc = jdbc;
    this.pool = pool;
    this.database = database;
    this.table = table;
  }

  /**
   * Writes where a phase's workers connect: the database, the table, and the URL of each slot.
   *
   * @param phaseDirectory the phase's directory
   * @param database the server
   * @param table the phase's lease table
   * @param serverUrl the server's own URL
   * @param urls the URL of each slot ({@code w1}, ...), through its proxy
   */
  static void describe(
      Path phaseDirectory,
      Database database,
      String table,
      String serverUrl,
      Map<String, String> urls) {
    Properties properties = new Properties();
    properties.setProperty("database", database.name());
    properties.setProperty("table", table);
    properties.setProperty(
        "url", database.workerUrl(serverUrl, Database.address(serverUrl).getPort()));
    urls.forEach((slot, url) -> properties.setProperty("url." + slot, url));
    try (Writer out =
        Files.newBufferedWriter(phaseDirectory.resolve(FILE), StandardCharsets.UTF_8)) {
      properties.store(out, "where the workers of this phase connect (lease-safety)");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + phaseDirectory.resolve(FILE), e);
    }
  }

  /**
   * Opens the phase's table as {@code describe} wrote it.
   *
   * @param phaseDirectory the phase's directory
   * @param worker the worker's id ({@code w2.3}: slot 2's proxy), or {@code null} for the server
   *     itself
   * @return the store; close it to close its pool
   */
  public static JdbcStore open(Path phaseDirectory, @Nullable String worker) {
    Properties properties = read(phaseDirectory);
    Database database = Database.valueOf(properties.getProperty("database"));
    String table = properties.getProperty("table");
    String url = urlOf(properties, worker);
    HikariConfig config = new HikariConfig();
    config.setPoolName("safety-" + (worker == null ? "direct" : worker));
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(5_000);
    config.setValidationTimeout(2_000);
    // A worker respawned just before a restart of the server starts while it is down: the pool
    // connects when asked, and opening the table is retried, as a supervised service would.
    config.setInitializationFailTimeout(-1);
    HikariDataSource pool = new HikariDataSource(config);
    try {
      return new JdbcStore(openTable(pool, table), pool, database, table);
    } catch (RuntimeException | Error e) {
      pool.close();
      throw e;
    }
  }

  /**
   * Where a worker connects, as {@link #describe} wrote it: for a {@code lease run} worker, which
   * opens the table itself.
   *
   * @param phaseDirectory the phase's directory
   * @param worker the worker's id or slot name ({@code r5}: slot r5's proxy)
   * @return the URL, through the slot's proxy, and the table
   */
  public static Target target(Path phaseDirectory, String worker) {
    Properties properties = read(phaseDirectory);
    return new Target(urlOf(properties, worker), properties.getProperty("table"));
  }

  /**
   * A lease table on a server, as a worker reaches it.
   *
   * @param url the JDBC URL, through the worker's proxy
   * @param table the lease table's name
   */
  public record Target(String url, String table) {}

  private static Properties read(Path phaseDirectory) {
    Properties properties = new Properties();
    try (Reader in =
        Files.newBufferedReader(phaseDirectory.resolve(FILE), StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + phaseDirectory.resolve(FILE), e);
    }
    return properties;
  }

  /** The URL of {@code worker}'s slot ({@code w2.3}: {@code url.w2}), else the server's. */
  private static String urlOf(Properties properties, @Nullable String worker) {
    String slot = worker == null ? "" : worker.replaceFirst("\\..*", "");
    return properties.getProperty("url." + slot, properties.getProperty("url"));
  }

  private static JdbcLeaseRepository openTable(HikariDataSource pool, String table) {
    long deadline = System.nanoTime() + OPEN_PATIENCE.toNanos();
    while (true) {
      try {
        return JdbcLeaseRepository.open(pool, JdbcOptions.builder().tableName(table).build());
      } catch (LeaseRepositoryFailure unreachable) {
        if (System.nanoTime() - deadline > 0) {
          throw unreachable;
        }
        try {
          Thread.sleep(250); // waiting for a server that is restarting: nothing to wait on
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw unreachable;
        }
      }
    }
  }

  /** The repository itself, for its fenced transactions. */
  JdbcLeaseRepository jdbc() {
    return jdbc;
  }

  Database database() {
    return database;
  }

  /** The side table's name: one counter row per key, written by fenced transactions only. */
  String sideTable() {
    return sideTable(table);
  }

  /** The side log's name: one row per committed fenced transaction. */
  String sideLog() {
    return sideLog(table);
  }

  static String sideTable(String table) {
    return table + "_side";
  }

  static String sideLog(String table) {
    return table + "_sidelog";
  }

  /** Closes the pool and its connections. */
  @Override
  public void close() {
    try {
      super.close();
    } finally {
      pool.close();
    }
  }
}
