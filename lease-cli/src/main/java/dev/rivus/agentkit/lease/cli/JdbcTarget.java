/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The lease table on a shared database that a command names: the URL, the table, whether the table
 * may be created, and the credentials the driver is given besides the URL. Plain values: no JDBC
 * class is loaded to make one. Its {@link #toString()} shows no secret.
 *
 * @param url the database URL
 * @param table the table's name as given, or {@code null} for the repository's default; checked
 *     when the repository is opened
 * @param createTable {@code false} when migrations own the schema ({@code --no-create-table}): the
 *     table must exist
 * @param user the user for the driver: the URL's {@code user@} part, else {@code $LEASE_JDBC_USER};
 *     a {@code user=} parameter of the URL wins over it in the driver
 * @param password the password for the driver, likewise: the URL's {@code :password@}, else {@code
 *     $LEASE_JDBC_PASSWORD}
 */
record JdbcTarget(
    JdbcUrl url,
    @Nullable String table,
    boolean createTable,
    @Nullable String user,
    @Nullable String password) {

  /** The database URL used when no {@code --db}, {@code --dir} or {@code --jdbc} is given. */
  static final String LEASE_JDBC_URL = "LEASE_JDBC_URL";

  /** The user for the database, when the URL names none. */
  static final String LEASE_JDBC_USER = "LEASE_JDBC_USER";

  /**
   * Makes the target of a URL, with the credentials the environment adds.
   *
   * @param url the URL
   * @param source where it came from, for messages: {@code --jdbc} or {@code $LEASE_JDBC_URL}
   * @param table the table's name, or {@code null} for the default
   * @param createTable whether the table may be created
   * @param environment the process environment
   * @return the target
   * @throws CliFailure with the usage code if the URL is not one the tool supports
   */
  static JdbcTarget of(
      String url,
      String source,
      @Nullable String table,
      boolean createTable,
      Map<String, String> environment) {
    JdbcUrl parsed = JdbcUrl.parse(url, source);
    String user =
        parsed.user() != null ? parsed.user() : nonEmpty(environment.get(LEASE_JDBC_USER));
    String password =
        parsed.password() != null
            ? parsed.password()
            : nonEmpty(environment.get(Redaction.LEASE_JDBC_PASSWORD));
    return new JdbcTarget(parsed, table, createTable, user, password);
  }

  /** Where the table is, for messages: {@code PostgreSQL database at URL}, without secrets. */
  String where() {
    return url.product() + " database at " + url.redacted();
  }

  @Override
  public String toString() {
    return "JdbcTarget[url="
        + url.redacted()
        + ", table="
        + table
        + ", createTable="
        + createTable
        + ", user="
        + user
        + ", password="
        + (password == null ? "none" : JdbcUrl.MASK)
        + "]";
  }

  private static @Nullable String nonEmpty(@Nullable String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
