/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseKeys;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Checks a lease key from the command line against the library's rule, as a usage error. */
final class Keys {

  private Keys() {}

  static String requireValid(CommandSpec spec, String key) {
    try {
      return LeaseKeys.requireValid(key);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), "invalid KEY: " + invalid.getMessage());
    }
  }
}
