/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * How a {@link SqliteLeaseRepository} waits and syncs, and whether it may create or write the
 * database. Immutable and thread-safe; validated once, by {@link Builder#build()}.
 *
 * <pre>{@code
 * SqliteOptions options = SqliteOptions.builder().busyWait(Duration.ofSeconds(2)).build();
 * LeaseRepository repository = SqliteLeaseRepository.open(Path.of("leases.db"), options);
 *
 * SqliteOptions reader = SqliteOptions.builder().readOnly(true).build();
 * LeaseRepository records = SqliteLeaseRepository.open(Path.of("leases.db"), reader);
 * }</pre>
 */
public final class SqliteOptions {

  private static final Duration DEFAULT_BUSY_WAIT = Duration.ofSeconds(5);
  private static final int DEFAULT_MAX_CONNECTIONS = 4;
  private static final int MAX_CONNECTIONS_LIMIT = 64;

  private final Duration busyWait;
  private final int maxConnections;
  private final boolean syncEveryWrite;
  private final InstantSource clock;
  private final boolean createIfMissing;
  private final boolean readOnly;

  private SqliteOptions(Builder builder) {
    this.createIfMissing = builder.createIfMissing;
    this.readOnly = builder.readOnly;
    this.busyWait = builder.busyWait;
    this.maxConnections = builder.maxConnections;
    this.syncEveryWrite = builder.syncEveryWrite;
    this.clock = builder.clock;
  }

  /**
   * Returns the defaults: a 5 s busy wait, at most 4 connections, acquisitions synced ({@code
   * synchronous=FULL}) and renewals and releases not ({@code synchronous=NORMAL}), the system clock
   * for pruning, and a database that is created if missing and written.
   *
   * @return the default options
   */
  public static SqliteOptions defaults() {
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
   * Returns the longest one repository call waits for a database that another connection holds
   * locked (or for a free connection of this repository, or, when opening, for another process to
   * finish opening the database) before it fails with {@link
   * dev.rivus.agentkit.lease.LeaseRepositoryFailure}.
   *
   * @return the busy wait budget per call
   */
  public Duration busyWait() {
    return busyWait;
  }

  /**
   * Tells whether opening creates the database when there is no file at the path. Not used when
   * {@link #readOnly()}: a read-only opening never creates.
   *
   * @return {@code true} by default
   */
  public boolean createIfMissing() {
    return createIfMissing;
  }

  /**
   * Tells whether the repository opens an existing database for reading only, writing nothing to
   * the file or next to it (see {@link Builder#readOnly(boolean)}).
   *
   * @return {@code false} by default
   */
  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Returns how many SQLite connections the repository keeps open at most.
   *
   * @return the connection limit
   */
  public int maxConnections() {
    return maxConnections;
  }

  /**
   * Tells whether every write is synced ({@code synchronous=FULL}), renewals and releases included.
   *
   * @return {@code true} if every write is synced; {@code false} (the default) if only
   *     acquisitions, the writes that raise a generation, are
   */
  public boolean syncEveryWrite() {
    return syncEveryWrite;
  }

  /**
   * Returns the wall clock that {@link SqliteLeaseRepository#prune(Duration)} measures the age of
   * tombstones with.
   *
   * @return the clock
   */
  public InstantSource clock() {
    return clock;
  }

  @Override
  public String toString() {
    return "SqliteOptions[busyWait="
        + busyWait
        + ", maxConnections="
        + maxConnections
        + ", syncEveryWrite="
        + syncEveryWrite
        + ", createIfMissing="
        + createIfMissing
        + ", readOnly="
        + readOnly
        + "]";
  }

  /** Builds {@link SqliteOptions}. Not thread-safe; use it from one thread. */
  public static final class Builder {

    private Duration busyWait = DEFAULT_BUSY_WAIT;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private boolean syncEveryWrite;
    private InstantSource clock = InstantSource.system();
    private boolean createIfMissing = true;
    private boolean readOnly;

    private Builder() {}

    /**
     * Chooses whether opening creates the database when there is no file at the path (the default).
     * Tools that only read a store turn it off, so that a mistyped path fails instead of leaving an
     * empty database in which every lease reads as absent.
     *
     * @param createIfMissing {@code false} to fail when the file does not exist
     * @return this builder
     */
    public Builder createIfMissing(boolean createIfMissing) {
      this.createIfMissing = createIfMissing;
      return this;
    }

    /**
     * Chooses whether opening only reads an existing lease database (off by default): nothing is
     * written to the file or next to it, so that a database on a read-only file system, or another
     * user's, can be read ({@link SqliteLeaseRepository#load}, {@link
     * SqliteLeaseRepository#loadAll}); every write, prune and key lock of the repository then fails
     * with {@link dev.rivus.agentkit.lease.LeaseRepositoryFailure}. A read-only opening never
     * creates the database ({@link #createIfMissing} is not used) and never migrates one of an
     * earlier schema version; see {@link SqliteLeaseRepository#open(java.nio.file.Path,
     * SqliteOptions)}.
     *
     * @param readOnly {@code true} to open an existing database for reading only
     * @return this builder
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /**
     * Sets the busy wait budget of one call: how long it retries a database that another connection
     * holds locked, with a jittered exponential backoff, before it fails.
     *
     * @param busyWait zero (one try) or positive
     * @return this builder
     * @throws NullPointerException if {@code busyWait} is null
     * @throws IllegalArgumentException if {@code busyWait} is negative
     */
    public Builder busyWait(Duration busyWait) {
      Objects.requireNonNull(busyWait, "busyWait");
      if (busyWait.isNegative()) {
        throw new IllegalArgumentException("busyWait must be zero or positive, was " + busyWait);
      }
      this.busyWait = busyWait;
      return this;
    }

    /**
     * Sets how many SQLite connections the repository keeps open at most. Writes are serialized
     * anyway; more connections only let more loads run at once.
     *
     * @param maxConnections from 1 to 64
     * @return this builder
     * @throws IllegalArgumentException if {@code maxConnections} is outside 1 to 64
     */
    public Builder maxConnections(int maxConnections) {
      if (maxConnections < 1 || maxConnections > MAX_CONNECTIONS_LIMIT) {
        throw new IllegalArgumentException(
            "maxConnections must be from 1 to "
                + MAX_CONNECTIONS_LIMIT
                + ", was "
                + maxConnections);
      }
      this.maxConnections = maxConnections;
      return this;
    }

    /**
     * Chooses whether renewals and releases are synced too. The default ({@code false}) syncs only
     * acquisitions, the writes that raise a generation; a renewal or release lost to a power cut
     * only makes the record look older, and can never lower a generation (see the class description
     * of {@link SqliteLeaseRepository}).
     *
     * @param syncEveryWrite {@code true} to sync every write
     * @return this builder
     */
    public Builder syncEveryWrite(boolean syncEveryWrite) {
      this.syncEveryWrite = syncEveryWrite;
      return this;
    }

    /**
     * Sets the wall clock that pruning measures the age of tombstones with; a fixed one in tests.
     *
     * @param clock the clock
     * @return this builder
     * @throws NullPointerException if {@code clock} is null
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the immutable options
     */
    public SqliteOptions build() {
      return new SqliteOptions(this);
    }
  }
}
