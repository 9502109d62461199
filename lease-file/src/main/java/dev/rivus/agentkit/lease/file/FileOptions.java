/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link FileLeaseRepository} waits for a key's write lock, and whether it only reads its
 * directory. Immutable and thread-safe; validated once, by its builder's setters.
 *
 * <pre>{@code
 * FileOptions options = FileOptions.builder().writeLockWait(Duration.ofSeconds(2)).build();
 * LeaseRepository repository = FileLeaseRepository.open(Path.of("/var/lib/app/leases"), options);
 *
 * FileOptions reader = FileOptions.builder().readOnly(true).build();
 * LeaseRepository records = FileLeaseRepository.open(Path.of("/var/lib/app/leases"), reader);
 * }</pre>
 */
public final class FileOptions {

  private static final Duration DEFAULT_WRITE_LOCK_WAIT = Duration.ofSeconds(10);

  private final Duration writeLockWait;
  private final boolean readOnly;

  private FileOptions(Builder builder) {
    this.writeLockWait = builder.writeLockWait;
    this.readOnly = builder.readOnly;
  }

  /**
   * Returns the defaults: a write-lock wait of 10 seconds, and a directory that is created if
   * missing and written.
   *
   * @return the default options
   */
  public static FileOptions defaults() {
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
   * Returns how long a save waits for the key's write lock before it fails with {@link
   * dev.rivus.agentkit.lease.LeaseRepositoryFailure}; other writers hold it only for one write, so
   * the default of 10 s is ample.
   *
   * @return the write-lock wait budget per save
   */
  public Duration writeLockWait() {
    return writeLockWait;
  }

  /**
   * Tells whether the repository opens an existing directory for reading only (see {@link
   * Builder#readOnly(boolean)}).
   *
   * @return {@code false} by default
   */
  public boolean readOnly() {
    return readOnly;
  }

  @Override
  public String toString() {
    return "FileOptions[writeLockWait=" + writeLockWait + ", readOnly=" + readOnly + "]";
  }

  /** Builds {@link FileOptions}. Not thread-safe; use it from one thread. */
  public static final class Builder {

    private Duration writeLockWait = DEFAULT_WRITE_LOCK_WAIT;
    private boolean readOnly;

    private Builder() {}

    /**
     * Sets how long a save waits for the key's write lock before it fails.
     *
     * @param writeLockWait positive
     * @return this builder
     * @throws NullPointerException if {@code writeLockWait} is null
     * @throws IllegalArgumentException if {@code writeLockWait} is zero or negative
     */
    public Builder writeLockWait(Duration writeLockWait) {
      Objects.requireNonNull(writeLockWait, "writeLockWait");
      if (writeLockWait.isNegative() || writeLockWait.isZero()) {
        throw new IllegalArgumentException("writeLockWait must be positive, was " + writeLockWait);
      }
      this.writeLockWait = writeLockWait;
      return this;
    }

    /**
     * Chooses whether opening only reads an existing directory (off by default), which needs no
     * write access: the directory is neither created nor probed, so that records can be read on a
     * read-only file system or in another user's directory ({@link FileLeaseRepository#load},
     * {@link FileLeaseRepository#loadAll}). A save or a key lock then fails as the file system
     * refuses it, with {@link dev.rivus.agentkit.lease.LeaseRepositoryFailure}.
     *
     * @param readOnly {@code true} to open an existing directory for reading only
     * @return this builder
     */
    public Builder readOnly(boolean readOnly) {
      this.readOnly = readOnly;
      return this;
    }

    /**
     * Builds the options.
     *
     * @return the immutable options
     */
    public FileOptions build() {
      return new FileOptions(this);
    }
  }
}
