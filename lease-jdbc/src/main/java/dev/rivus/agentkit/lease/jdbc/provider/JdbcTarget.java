/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import org.jspecify.annotations.Nullable;

/**
 * The lease table on a shared database that a {@code jdbc:} request names: the URL, the table,
 * whether the table may be created, and the credentials the driver is given besides the URL. Plain
 * values: no JDBC class is loaded to make one. Its {@link #toString()} shows no secret.
 *
 * @param url the database URL
 * @param table the table's name as given, or {@code null} for the repository's default; checked
 *     when the repository is opened
 * @param createTable {@code false} when migrations own the schema (the lease command's {@code
 *     --no-create-table}): the table must exist
 * @param user the user for the driver: the URL's {@code user@} part, else the setting {@value
 *     #USER}; a {@code user=} parameter of the URL wins over it in the driver
 * @param password the password for the driver, likewise: the URL's {@code :password@}, else the
 *     setting {@value #PASSWORD}
 */
record JdbcTarget(
    JdbcUrl url,
    @Nullable String table,
    boolean createTable,
    @Nullable String user,
    @Nullable String password) {

  /** The setting that names the lease table; the repository's default without it. */
  static final String TABLE = "table";

  /** The setting that says whether the table may be created: {@code true} (the default) or not. */
  static final String CREATE_TABLE = "create-table";

  /** The setting of the user, when the URL has no user part. */
  static final String USER = "user";

  /** The setting of the password, when the URL has no user part with one. */
  static final String PASSWORD = "password";

  /**
   * Makes the target of a request: its URL, and the settings of the table and the credentials.
   *
   * @param request the request
   * @return the target
   * @throws LeaseConfigInvalid if the URL is not one of PostgreSQL or MariaDB, or a setting is
   *     unknown or not valid
   */
  static JdbcTarget of(StoreRequest request) {
    request.requireKnownSettings(TABLE, CREATE_TABLE, USER, PASSWORD);
    JdbcUrl parsed =
        JdbcUrl.parse(request.uri(), request.spelling(StoreRequest.LOCATION, "the URL"));
    String user = parsed.user() != null ? parsed.user() : nonEmpty(request, USER);
    String password = parsed.password() != null ? parsed.password() : nonEmpty(request, PASSWORD);
    return new JdbcTarget(
        parsed, request.setting(TABLE).orElse(null), createTable(request), user, password);
  }

  private static boolean createTable(StoreRequest request) {
    String value = request.setting(CREATE_TABLE).orElse("true");
    if (!value.equals("true") && !value.equals("false")) {
      throw new LeaseConfigInvalid(
          CREATE_TABLE,
          request.spelling(CREATE_TABLE, CREATE_TABLE)
              + " must be true or false, was '"
              + value
              + "'");
    }
    return value.equals("true");
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

  private static @Nullable String nonEmpty(StoreRequest request, String setting) {
    String value = request.setting(setting).orElse(null);
    return value == null || value.isEmpty() ? null : value;
  }
}
