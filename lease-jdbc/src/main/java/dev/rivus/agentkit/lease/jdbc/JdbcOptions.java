/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The options of a {@link JdbcLeaseRepository}: the name of its table and how many key locks may
 * hold connections at once. Immutable; start from {@link #defaults()}.
 */
public final class JdbcOptions {

  /** The table of {@link #defaults()}. */
  public static final String DEFAULT_TABLE_NAME = "lease_records";

  /**
   * The rule of a table name: lower-case ASCII letters, digits and underscores, not starting with a
   * digit, at most 57 characters, so that the fence table's name ({@code _fence} appended) stays
   * within PostgreSQL's 63. The name goes into SQL text as it is, so nothing else is accepted; a
   * schema-qualified name is not either (use the connection's search path).
   */
  private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,56}");

  /** The key lock limit of {@link #defaults()}. */
  public static final int DEFAULT_KEY_LOCK_LIMIT = 4;

  private static final JdbcOptions DEFAULTS =
      new JdbcOptions(DEFAULT_TABLE_NAME, DEFAULT_KEY_LOCK_LIMIT);

  private final String tableName;
  private final int keyLockLimit;

  private JdbcOptions(String tableName, int keyLockLimit) {
    this.tableName = tableName;
    this.keyLockLimit = keyLockLimit;
  }

  /**
   * Returns the default options: table {@value #DEFAULT_TABLE_NAME}, at most {@value
   * #DEFAULT_KEY_LOCK_LIMIT} key locks at once.
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
   *     starting with a digit, 1 to 57 characters; the fence table is this name with {@code _fence}
   *     appended
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
              + "' is not allowed: use 1 to 57 lower-case ASCII letters, digits and underscores,"
              + " not starting with a digit");
    }
    return new JdbcOptions(tableName, keyLockLimit);
  }

  /**
   * Returns these options with another key lock limit: how many key locks of one repository may
   * hold or wait for their advisory lock at once, each on a connection of the data source. More
   * callers wait, without a connection, until one closes. Keep it below the pool's size, so that
   * saves and renewals always find a connection: with a pool of {@code n} connections shared with
   * nothing else, up to {@code n - 2}.
   *
   * @param keyLockLimit at least 1
   * @return the new options
   * @throws IllegalArgumentException if the limit is below 1
   */
  public JdbcOptions withKeyLockLimit(int keyLockLimit) {
    if (keyLockLimit < 1) {
      throw new IllegalArgumentException("keyLockLimit must be at least 1, was " + keyLockLimit);
    }
    return new JdbcOptions(tableName, keyLockLimit);
  }

  /**
   * Returns how many key locks may hold connections at once.
   *
   * @return the limit, at least 1
   */
  public int keyLockLimit() {
    return keyLockLimit;
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
    return other instanceof JdbcOptions
        && ((JdbcOptions) other).tableName.equals(tableName)
        && ((JdbcOptions) other).keyLockLimit == keyLockLimit;
  }

  @Override
  public int hashCode() {
    return tableName.hashCode() * 31 + keyLockLimit;
  }

  @Override
  public String toString() {
    return "JdbcOptions[tableName=" + tableName + ", keyLockLimit=" + keyLockLimit + "]";
  }
}
