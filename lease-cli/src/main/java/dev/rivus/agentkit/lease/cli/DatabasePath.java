/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the default SQLite lease database lives: {@code $LEASE_DB} if set, else {@code
 * $XDG_STATE_HOME/lease/leases.db}, else {@code ~/.local/state/lease/leases.db} (the XDG base
 * directory default for state). Reads only the environment it is given.
 */
final class DatabasePath {

  static final String LEASE_DB = "LEASE_DB";

  private DatabasePath() {}

  /**
   * Resolves the default database path.
   *
   * @param environment the process environment
   * @return the absolute path of the database file
   * @throws CliFailure with the usage code if neither {@code LEASE_DB}, {@code XDG_STATE_HOME} nor
   *     {@code HOME} is set
   */
  static Path resolve(Map<String, String> environment) {
    String explicit = nonEmpty(environment.get(LEASE_DB));
    if (explicit != null) {
      return Path.of(explicit).toAbsolutePath();
    }
    String state = nonEmpty(environment.get("XDG_STATE_HOME"));
    // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
    if (state != null && Path.of(state).isAbsolute()) {
      return Path.of(state, "lease", "leases.db");
    }
    String home = nonEmpty(environment.get("HOME"));
    if (home == null) {
      throw new CliFailure(
          ExitCodes.USAGE,
          "cannot choose a default lease database: none of LEASE_DB, XDG_STATE_HOME or HOME is set;"
              + " use --db PATH, --dir DIR or --jdbc URL");
    }
    return Path.of(home, ".local", "state", "lease", "leases.db").toAbsolutePath();
  }

  private static @Nullable String nonEmpty(@Nullable String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
