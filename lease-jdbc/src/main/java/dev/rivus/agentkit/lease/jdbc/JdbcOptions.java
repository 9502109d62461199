/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The options of a {@link JdbcLeaseRepository}: for now, the name of its table. Immutable; start
 * from {@link #defaults()}.
 */
public final class JdbcOptions {

  /** The table of {@link #defaults()}. */
  public static final String DEFAULT_TABLE_NAME = "lease_records";

  /**
   * The rule of a table name: lower-case ASCII letters, digits and underscores, not starting with a
   * digit, at most 63 characters (PostgreSQL's limit). The name goes into SQL text as it is, so
   * nothing else is accepted; a schema-qualified name is not either (use the connection's search
   * path).
   */
  private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private static final JdbcOptions DEFAULTS = new JdbcOptions(DEFAULT_TABLE_NAME);

  private final String tableName;

  private JdbcOptions(String tableName) {
    this.tableName = tableName;
  }

  /**
   * Returns the default options: table {@value #DEFAULT_TABLE_NAME}.
   *
   * @return the defaults
   */
  public static JdbcOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Returns these options with another table.
   *
   * @param tableName the table's name: lower-case ASCII letters, digits and underscores, not
   *     starting with a digit, 1 to 63 characters
   * @return the new options
   * @throws NullPointerException if {@code tableName} is null
   * @throws IllegalArgumentException if the name breaks the rule
   */
  public JdbcOptions withTableName(String tableName) {
    Objects.requireNonNull(tableName, "tableName");
    if (!TABLE_NAME.matcher(tableName).matches()) {
      throw new IllegalArgumentException(
          "table name '"
              + tableName
              + "' is not allowed: use 1 to 63 lower-case ASCII letters, digits and underscores,"
              + " not starting with a digit");
    }
    return new JdbcOptions(tableName);
  }

  /**
   * Returns the name of the table.
   *
   * @return the table name
   */
  public String tableName() {
    return tableName;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof JdbcOptions && ((JdbcOptions) other).tableName.equals(tableName);
  }

  @Override
  public int hashCode() {
    return tableName.hashCode();
  }

  @Override
  public String toString() {
    return "JdbcOptions[tableName=" + tableName + "]";
  }
}
