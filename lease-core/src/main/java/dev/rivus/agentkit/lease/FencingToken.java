/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/**
 * The fencing token handed to fenced work: the key and generation to pass to the protected
 * resource, and a place to register cancel actions for blocking calls that ignore interrupts.
 *
 * <p>Thread-safe. Valid only while the fenced work that received it runs.
 */
public interface FencingToken {

  /**
   * Returns the lease key.
   *
   * @return the key
   */
  String key();

  /**
   * Returns the generation: the fencing token a resource compares, refusing anything smaller than
   * the highest it has seen.
   *
   * @return the generation, at least 1
   */
  long generation();

  /**
   * Tells whether the lease is still held.
   *
   * @return {@code false} once the lease is lost or released
   */
  boolean isHeld();

  /**
   * Registers an action to run once when the lease is lost while the work runs, for example {@code
   * statement::cancel} for a JDBC call that ignores interrupts. Actions run on a library thread,
   * not the work's; if the lease is already lost, the action runs at once. In {@link
   * Lease#runFencedUninterruptibly(FencedWork)} actions do not run: that work is left to settle.
   *
   * @param cancelAction the action; exceptions it throws are logged and otherwise ignored
   * @return a registration; close it to remove the action once the call it guards has returned (an
   *     action already running is waited for, so none runs after the close or after the fenced work
   *     returned)
   */
  Registration onLoss(Runnable cancelAction);

  /** A registered cancel action. Closing it removes the action; closing it again does nothing. */
  interface Registration extends AutoCloseable {
    /** Removes the action. */
    @Override
    void close();
  }
}
