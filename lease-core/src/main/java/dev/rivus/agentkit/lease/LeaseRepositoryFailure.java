/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The repository could not do what was asked: storage unreachable, busy beyond its wait budget,
 * corrupt, read-only, full. The message says what happened and where; the cause is the underlying
 * exception when there is one. {@link StoreLost} is the case where the store itself is gone.
 */
public sealed class LeaseRepositoryFailure extends LeaseException permits StoreLost {

  private static final long serialVersionUID = 1L;

  private final @Nullable String key;

  /**
   * Creates the failure.
   *
   * @param key the key the operation was about, or {@code null} when it concerns the whole
   *     repository
   * @param message what happened, naming the file, table or server involved
   * @param cause the underlying failure, or {@code null}
   */
  public LeaseRepositoryFailure(@Nullable String key, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.key = key;
  }

  /**
   * Returns the key the failed operation was about.
   *
   * @return the key, or empty when the failure concerns the whole repository
   */
  public Optional<String> key() {
    return Optional.ofNullable(key);
  }
}
