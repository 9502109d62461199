/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The options of a {@link JdbcLeaseRepository}: the name of its table, whether opening creates the
 * tables when they are missing, how many key locks and fenced transactions may hold connections at
 * once, and how long its own statements may wait for the network. Immutable and thread-safe;
 * validated by the setters of its {@link Builder}.
 *
 * <pre>{@code
 * JdbcOptions options =
 *     JdbcOptions.builder().tableName("billing_leases").createIfMissing(true).build();
 * JdbcLeaseRepository repository = JdbcLeaseRepository.open(dataSource, options);
 * }</pre>
 */
public final class JdbcOptions {

  /** The table of {@link #defaults()}. */
  public static final String DEFAULT_TABLE_NAME = "lease_records";

  /**
   * The rule of a table name: lower-case ASCII letters, digits and underscores, not starting with a
   * digit, at most 57 characters, so that the generation table's name ({@code _fence} appended)
   * stays within PostgreSQL's 63. The name goes into SQL text as it is, so nothing else is
   * accepted; a schema-qualified name is not either (use the connection's search path).
   */
  private static final Pattern TABLE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,56}");

  /**
   * The words that PostgreSQL 16 (its "reserved" and "reserved, can be function or type" keywords)
   * or MariaDB 11 reserves, which cannot name a table unquoted: the name goes into SQL text as it
   * is, so such a name would fail only at the first statement, with the server's syntax error.
   */
  private static final Set<String> RESERVED_WORDS =
      Set.of(
          ("accessible add all alter analyse analyze and any array as asc asensitive asymmetric"
                  + " authorization before between bigint binary blob both by call cascade case"
                  + " cast change char character check collate collation column concurrently"
                  + " condition constraint continue convert create cross current_catalog"
                  + " current_date current_role current_schema current_time current_timestamp"
                  + " current_user cursor database databases day_hour day_microsecond day_minute"
                  + " day_second dec decimal declare default deferrable delayed delete"
                  + " delete_domain_id desc describe deterministic distinct distinctrow div do"
                  + " do_domain_ids double drop dual each else elseif enclosed end escaped except"
                  + " exists exit explain false fetch float float4 float8 for force foreign freeze"
                  + " from full fulltext general grant group having high_priority hour_microsecond"
                  + " hour_minute hour_second if ignore ignore_domain_ids ignore_server_ids ilike"
                  + " in index infile initially inner inout insensitive insert int int1 int2 int3"
                  + " int4 int8 integer intersect interval into is isnull iterate join key keys"
                  + " kill lateral leading leave left like limit linear lines load localtime"
                  + " localtimestamp lock long longblob longtext loop low_priority"
                  + " master_heartbeat_period master_ssl_verify_server_cert match maxvalue"
                  + " mediumblob mediumint mediumtext middleint minute_microsecond minute_second"
                  + " mod modifies natural no_write_to_binlog not notnull null numeric offset on"
                  + " only optimize option optionally or order out outer outfile over overlaps"
                  + " page_checksum parse_vcol_expr partition placing position precision primary"
                  + " procedure purge range read read_write reads real recursive ref_system_id"
                  + " references regexp release rename repeat replace require resignal restrict"
                  + " return returning revoke right rlike row_number rows schema schemas"
                  + " second_microsecond select sensitive separator session_user set show signal"
                  + " similar slow smallint some spatial specific sql sql_big_result"
                  + " sql_calc_found_rows sql_small_result sqlexception sqlstate sqlwarning ssl"
                  + " starting stats_auto_recalc stats_persistent stats_sample_pages straight_join"
                  + " symmetric system_user table tablesample terminated then tinyblob tinyint"
                  + " tinytext to trailing trigger true undo union unique unlock unsigned update"
                  + " usage use user using utc_date utc_time utc_timestamp values varbinary"
                  + " varchar varcharacter variadic varying verbose when where while window with"
                  + " write xor year_month zerofill")
              .split(" "));

  /** The key lock limit of {@link #defaults()}. */
  public static final int DEFAULT_KEY_LOCK_LIMIT = 4;

  /** The fenced transaction limit of {@link #defaults()}. */
  public static final int DEFAULT_FENCED_TRANSACTION_LIMIT = 4;

  /** The network timeout of {@link #defaults()}. */
  public static final Duration DEFAULT_NETWORK_TIMEOUT = Duration.ofSeconds(10);

  private final String tableName;
  private final boolean createIfMissing;
  private final int keyLockLimit;
  private final int fencedTransactionLimit;
  private final Duration networkTimeout;

  private JdbcOptions(Builder builder) {
    this.tableName = builder.tableName;
    this.createIfMissing = builder.createIfMissing;
    this.keyLockLimit = builder.keyLockLimit;
    this.fencedTransactionLimit = builder.fencedTransactionLimit;
    this.networkTimeout = builder.networkTimeout;
  }

  /**
   * Returns the default options: table {@value #DEFAULT_TABLE_NAME}, which must exist (nothing is
   * created), at most {@value #DEFAULT_KEY_LOCK_LIMIT} key locks and {@value
   * #DEFAULT_FENCED_TRANSACTION_LIMIT} fenced transactions at once, a network timeout of 10
   * seconds.
   *
   * @return the defaults
   */
  public static JdbcOptions defaults() {
    return builder().build();
  }

  /**
   * Starts a builder holding the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the name of the table.
   *
   * @return the table name
   */
  public String tableName() {
    return tableName;
  }

  /**
   * Tells whether opening creates the lease table and its generation table when they do not exist.
   *
   * @return {@code false} by default
   */
  public boolean createIfMissing() {
    return createIfMissing;
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
   * Returns how many fenced transactions may run at once.
   *
   * @return the limit, at least 1
   */
  public int fencedTransactionLimit() {
    return fencedTransactionLimit;
  }

  /**
   * Returns how long the repository's own statements wait for the database.
   *
   * @return the network timeout
   */
  public Duration networkTimeout() {
    return networkTimeout;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof JdbcOptions that
        && that.tableName.equals(tableName)
        && that.createIfMissing == createIfMissing
        && that.keyLockLimit == keyLockLimit
        && that.fencedTransactionLimit == fencedTransactionLimit
        && that.networkTimeout.equals(networkTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        tableName, createIfMissing, keyLockLimit, fencedTransactionLimit, networkTimeout);
  }

  @Override
  public String toString() {
    return "JdbcOptions[tableName="
        + tableName
        + ", createIfMissing="
        + createIfMissing
        + ", keyLockLimit="
        + keyLockLimit
        + ", fencedTransactionLimit="
        + fencedTransactionLimit
        + ", networkTimeout="
        + networkTimeout
        + "]";
  }

  /** Builds {@link JdbcOptions}. Not thread-safe; use it from one thread. */
  public static final class Builder {

    private String tableName = DEFAULT_TABLE_NAME;
    private boolean createIfMissing;
    private int keyLockLimit = DEFAULT_KEY_LOCK_LIMIT;
    private int fencedTransactionLimit = DEFAULT_FENCED_TRANSACTION_LIMIT;
    private Duration networkTimeout = DEFAULT_NETWORK_TIMEOUT;

    private Builder() {}

    /**
     * Sets the table's name (default {@value JdbcOptions#DEFAULT_TABLE_NAME}).
     *
     * @param tableName lower-case ASCII letters, digits and underscores, not starting with a digit,
     *     1 to 57 characters; the generation table is this name with {@code _fence} appended; not a
     *     word that PostgreSQL or MariaDB reserves ({@code select}, {@code user}, {@code order}...)
     * @return this builder
     * @throws NullPointerException if {@code tableName} is null
     * @throws IllegalArgumentException if the name breaks the rule or is a reserved word
     */
    public Builder tableName(String tableName) {
      Objects.requireNonNull(tableName, "tableName");
      if (!TABLE_NAME.matcher(tableName).matches()) {
        throw new IllegalArgumentException(
            "table name '"
                + tableName
                + "' is not allowed: use 1 to 57 lower-case ASCII letters, digits and underscores,"
                + " not starting with a digit");
      }
      if (RESERVED_WORDS.contains(tableName)) {
        throw new IllegalArgumentException(
            "table name '"
                + tableName
                + "' is not allowed: it is a reserved word of SQL (PostgreSQL or MariaDB), which"
                + " cannot name a table; choose another, such as '"
                + tableName
                + "_leases'");
      }
      this.tableName = tableName;
      return this;
    }

    /**
     * Chooses whether opening creates the lease table and its generation table when they do not
     * exist (default {@code false}: opening only checks them). Creating runs the statements of the
     * DDL file shipped beside {@link JdbcLeaseRepository} ({@code postgresql.sql} or {@code
     * mariadb.sql}), safe beside another process doing the same, and needs the right to create
     * tables; a table that exists is checked, never adopted. Applications whose migrations own the
     * schema (Flyway, Liquibase) run that file instead and leave this off.
     *
     * @param createIfMissing {@code true} to create missing tables when opening
     * @return this builder
     */
    public Builder createIfMissing(boolean createIfMissing) {
      this.createIfMissing = createIfMissing;
      return this;
    }

    /**
     * Sets the key lock limit (default {@value JdbcOptions#DEFAULT_KEY_LOCK_LIMIT}): how many key
     * locks of one repository may hold or wait for their advisory lock at once, each on a
     * connection of the data source. More callers wait, without a connection, until one closes.
     * With the fenced transaction limit, keep it below the pool's size, so that saves and renewals
     * always find a connection: with a pool of {@code n} connections shared with nothing else, the
     * two limits together up to {@code n - 2}.
     *
     * @param keyLockLimit at least 1
     * @return this builder
     * @throws IllegalArgumentException if the limit is below 1
     */
    public Builder keyLockLimit(int keyLockLimit) {
      if (keyLockLimit < 1) {
        throw new IllegalArgumentException("keyLockLimit must be at least 1, was " + keyLockLimit);
      }
      this.keyLockLimit = keyLockLimit;
      return this;
    }

    /**
     * Sets the fenced transaction limit (default {@value
     * JdbcOptions#DEFAULT_FENCED_TRANSACTION_LIMIT}): how many fenced transactions of one
     * repository may run at once, each on a connection of the data source; more wait for a turn.
     * With the key lock limit, keep it below the pool's size so that renewals always find a
     * connection.
     *
     * @param fencedTransactionLimit at least 1
     * @return this builder
     * @throws IllegalArgumentException if the limit is below 1
     */
    public Builder fencedTransactionLimit(int fencedTransactionLimit) {
      if (fencedTransactionLimit < 1) {
        throw new IllegalArgumentException(
            "fencedTransactionLimit must be at least 1, was " + fencedTransactionLimit);
      }
      this.fencedTransactionLimit = fencedTransactionLimit;
      return this;
    }

    /**
     * Sets the network timeout (default 10 seconds): how long one of the repository's own
     * statements (a load, a save, a heartbeat's batch, pruning, {@link
     * JdbcLeaseRepository#verifyFence}'s read of the record, a key lock's attempt, release or
     * check) waits for the database to answer before it fails ({@link
     * java.sql.Connection#setNetworkTimeout}, set while the repository uses the connection). A
     * connection whose far end died silently then fails instead of holding the manager's renewal
     * round for good. A shorter timeout the connection already has (the driver's {@code
     * socketTimeout}) is kept. Not bounded by it: opening (creating and checking the tables), the
     * wait for a connection (the pool's own timeout), and fenced transactions, whose statements,
     * the repository's check and commit included, run under the connection's own timeouts (the
     * token form of {@code inFencedTransaction} also ends on the lease's loss).
     *
     * @param networkTimeout at least one millisecond, at most {@code Integer.MAX_VALUE}
     *     milliseconds
     * @return this builder
     * @throws IllegalArgumentException if out of range
     * @throws NullPointerException if {@code networkTimeout} is null
     */
    public Builder networkTimeout(Duration networkTimeout) {
      Objects.requireNonNull(networkTimeout, "networkTimeout");
      // As toMillis() from 1 to Integer.MAX_VALUE, without its overflow on huge durations.
      if (networkTimeout.compareTo(Duration.ofMillis(1)) < 0
          || networkTimeout.compareTo(Duration.ofMillis(Integer.MAX_VALUE + 1L)) >= 0) {
        throw new IllegalArgumentException(
            "networkTimeout must be between 1 ms and "
                + Integer.MAX_VALUE
                + " ms, was "
                + networkTimeout);
      }
      this.networkTimeout = networkTimeout;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the immutable options
     */
    public JdbcOptions build() {
      return new JdbcOptions(this);
    }
  }
}
