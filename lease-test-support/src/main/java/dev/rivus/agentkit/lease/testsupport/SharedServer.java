/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;

/**
 * A shared database server, as the tests, the safety harness and the benchmarks find it: named by
 * an environment variable, by default a local one with a database {@code test} (PostgreSQL with
 * trust authentication, MariaDB as root without a password). Shared: other tests use it at the same
 * time, so each works on tables of its own, and none restarts it (a {@link PrivateServer} is for
 * that).
 *
 * <p>The tests and the safety harness read {@code LEASE_TEST_POSTGRES_URL} and {@code
 * LEASE_TEST_MARIADB_URL} ({@link #url()}), the benchmarks {@code LEASE_BENCH_POSTGRES_URL} and
 * {@code LEASE_BENCH_MARIADB_URL} ({@link #benchmarkUrl()}); unset or blank, a variable means the
 * local server. A test that needs the server calls {@link #requireReachable()}: unreachable, the
 * test is skipped, or fails on CI ({@link TestEnvironment#skipOrFail}).
 *
 * <p>It connects through {@link DriverManager}: the caller's class path must hold the JDBC driver.
 * Thread-safe.
 */
public enum SharedServer {
  /** PostgreSQL, by default at 127.0.0.1:5432. */
  POSTGRES(
      "PostgreSQL",
      "LEASE_TEST_POSTGRES_URL",
      "LEASE_BENCH_POSTGRES_URL",
      "jdbc:postgresql://127.0.0.1:5432/test?user=root"),
  /** MariaDB, by default at 127.0.0.1:3306. */
  MARIADB(
      "MariaDB",
      "LEASE_TEST_MARIADB_URL",
      "LEASE_BENCH_MARIADB_URL",
      "jdbc:mariadb://127.0.0.1:3306/test?user=root");

  private final String product;
  private final String urlVariable;
  private final String benchmarkUrlVariable;
  private final String defaultUrl;

  /** Per server, why it did not answer when first asked, or "" if it did: once per JVM. */
  private static final ConcurrentMap<SharedServer, String> FIRST_ANSWER = new ConcurrentHashMap<>();

  SharedServer(String product, String urlVariable, String benchmarkUrlVariable, String defaultUrl) {
    this.product = product;
    this.urlVariable = urlVariable;
    this.benchmarkUrlVariable = benchmarkUrlVariable;
    this.defaultUrl = defaultUrl;
  }

  /**
   * The product's name, as its driver reports it and messages name it.
   *
   * @return {@code PostgreSQL} or {@code MariaDB}
   */
  public String product() {
    return product;
  }

  /**
   * The environment variable of the tests' and the harness's URL.
   *
   * @return {@code LEASE_TEST_POSTGRES_URL} or {@code LEASE_TEST_MARIADB_URL}
   */
  public String urlVariable() {
    return urlVariable;
  }

  /**
   * The JDBC URL the tests and the safety harness use: {@link #urlVariable()}'s value, else the
   * local server's.
   *
   * @return the URL
   */
  public String url() {
    return fromEnvironment(System.getenv(), urlVariable, defaultUrl);
  }

  /**
   * The environment variable of the benchmarks' URL.
   *
   * @return {@code LEASE_BENCH_POSTGRES_URL} or {@code LEASE_BENCH_MARIADB_URL}
   */
  public String benchmarkUrlVariable() {
    return benchmarkUrlVariable;
  }

  /**
   * The JDBC URL the benchmarks use: {@link #benchmarkUrlVariable()}'s value, else the local
   * server's.
   *
   * @return the URL
   */
  public String benchmarkUrl() {
    return fromEnvironment(System.getenv(), benchmarkUrlVariable, defaultUrl);
  }

  /** A variable's value; unset or blank, the default. The one reading of the URLs' variables. */
  static String fromEnvironment(Map<String, String> environment, String variable, String fallback) {
    String value = environment.get(variable);
    return value == null || value.isBlank() ? fallback : value;
  }

  /**
   * Asks the server at {@link #url()} now whether it answers.
   *
   * @return why it cannot be used (the driver's message), or {@code null} if it answered
   */
  public @Nullable String unreachable() {
    try (Connection connection = DriverManager.getConnection(url())) {
      return connection.isValid(5) ? null : "the connection is not valid";
    } catch (SQLException e) {
      return String.valueOf(e.getMessage());
    }
  }

  /**
   * Tells whether the server at {@link #url()} answered, asking it once per JVM.
   *
   * @return {@code true} if it answered
   */
  public boolean isReachable() {
    return firstAnswer().isEmpty();
  }

  private String firstAnswer() {
    return FIRST_ANSWER.computeIfAbsent(
        this,
        server -> {
          String unreachable = server.unreachable();
          return unreachable == null ? "" : unreachable;
        });
  }

  /**
   * Skips the calling test, or fails it on CI, unless the server answered ({@link #isReachable()}).
   *
   * @throws org.opentest4j.TestAbortedException if it did not, outside CI
   * @throws org.opentest4j.AssertionFailedError if it did not, on CI
   */
  public void requireReachable() {
    if (!isReachable()) {
      TestEnvironment.skipOrFail(
          product + " at " + url() + " unreachable: " + firstAnswer(), "the server is required");
    }
  }
}
