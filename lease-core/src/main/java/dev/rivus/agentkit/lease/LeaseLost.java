/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A lease handle no longer holds its lease. Loss is final for a handle: acquiring the key again
 * gives a new handle with a higher generation, and everything guarded by this handle's token is
 * refused.
 */
public final class LeaseLost extends LeaseException {

  private static final long serialVersionUID = 1L;

  /** Why a lease was lost. */
  public enum Reason {
    /** The handle was closed (or its manager was), and the lease released. */
    RELEASED,
    /** The record names another holder or generation: another process took the lease over. */
    TAKEN_OVER,
    /**
     * The record is a tombstone of this handle's generation that its holder did not write: an
     * operator released it (for example {@code lease release --generation N}).
     */
    FORCED_RELEASE,
    /** The holder could not renew within the TTL, so another process may take the lease over. */
    EXPIRED,
    /**
     * The store the lease was written to was deleted, replaced or emptied, or the lease's record
     * vanished from it: another process may already hold the key in a new store.
     */
    STORE_LOST,
    /**
     * The repository's key lock was lost while fenced work ran (a database connection that
     * dropped): the work was ended and the lease given up, since nothing excludes a successor any
     * more.
     */
    KEY_LOCK_LOST
  }

  private final String key;
  private final long generation;
  private final Reason reason;
  private final @Nullable LeaseSnapshot current;

  /**
   * Creates the failure.
   *
   * @param key the key of the lost lease
   * @param generation the generation the handle held
   * @param reason why it was lost
   * @param current the record as last read, when it shows the successor; otherwise {@code null}
   * @param cause the failure that caused the loss (a repository failure), or {@code null}
   */
  public LeaseLost(
      String key,
      long generation,
      Reason reason,
      @Nullable LeaseSnapshot current,
      @Nullable Throwable cause) {
    this(message(key, generation, reason, current, cause), key, generation, reason, current, cause);
  }

  private LeaseLost(
      String message,
      String key,
      long generation,
      Reason reason,
      @Nullable LeaseSnapshot current,
      @Nullable Throwable cause) {
    super(message, cause);
    this.key = key;
    this.generation = generation;
    this.reason = reason;
    this.current = current;
  }

  private static String message(
      String key,
      long generation,
      Reason reason,
      @Nullable LeaseSnapshot current,
      @Nullable Throwable cause) {
    String head = "lease '" + key + "' generation " + generation;
    switch (reason) {
      case RELEASED:
        return head + " was released";
      case TAKEN_OVER:
        return head
            + " was taken over"
            + (current == null
                ? ""
                : ": the record now shows generation "
                    + current.generation()
                    + " ("
                    + current.state().name().toLowerCase(java.util.Locale.ROOT)
                    + ", "
                    + current.holder().process()
                    + ")");
      case FORCED_RELEASE:
        return head
            + " was released by an operator: its record is now a tombstone of this generation,"
            + " written by another process (a forced release)";
      case STORE_LOST:
        return head
            + " was lost with its store"
            + (cause == null ? ": its record vanished" : ": " + cause.getMessage());
      case KEY_LOCK_LOST:
        return head
            + " was given up: its key lock was lost while fenced work ran"
            + (cause == null ? "" : " (" + cause.getMessage() + ")");
      case EXPIRED:
      default:
        return head
            + " expired: it could not be renewed within the TTL"
            + (cause == null ? "" : " (" + cause.getMessage() + ")");
    }
  }

  /**
   * Returns the key of the lost lease.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * Returns the generation the handle held.
   *
   * @return the generation
   */
  public long generation() {
    return generation;
  }

  /**
   * Returns why the lease was lost.
   *
   * @return the reason
   */
  public Reason reason() {
    return reason;
  }

  /**
   * Returns the record as last read when it showed the successor.
   *
   * @return the record, or empty when the loss was not observed in the record
   */
  public Optional<LeaseSnapshot> current() {
    return Optional.ofNullable(current);
  }

  /**
   * Returns a fresh exception with the same facts, whose stack trace shows the caller that meets
   * the loss; the original is its cause.
   *
   * @return a new {@code LeaseLost} to throw
   */
  public LeaseLost rethrown() {
    return new LeaseLost(
        message(key, generation, reason, current, getCause()),
        key,
        generation,
        reason,
        current,
        this);
  }
}
