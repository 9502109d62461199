/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseLost;

/** How the tool names a loss's reason to its user. Stateless. */
final class LossWords {

  private LossWords() {}

  /** The reason in words, for example "released by an operator" or "taken over". */
  static String of(LeaseLost.Reason reason) {
    return switch (reason) {
      case RELEASED -> "released";
      case TAKEN_OVER -> "taken over";
      case FORCED_RELEASE -> "released by an operator";
      case EXPIRED -> "expired";
      case STORE_LOST -> "store lost";
      case KEY_LOCK_LOST -> "key lock lost";
    };
  }
}
