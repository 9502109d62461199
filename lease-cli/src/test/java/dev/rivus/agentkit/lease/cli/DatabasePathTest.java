/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatabasePathTest {

  @Test
  void leaseDbWinsOverEverythingElse() {
    Map<String, String> env =
        Map.of("LEASE_DB", "/srv/leases.db", "XDG_STATE_HOME", "/state", "HOME", "/home/ann");

    assertThat(DatabasePath.resolve(env)).isEqualTo(Path.of("/srv/leases.db"));
  }

  @Test
  void xdgStateHomeComesNext() {
    Map<String, String> env = Map.of("XDG_STATE_HOME", "/state", "HOME", "/home/ann");

    assertThat(DatabasePath.resolve(env)).isEqualTo(Path.of("/state/lease/leases.db"));
  }

  @Test
  void homeLocalStateIsTheLastDefault() {
    assertThat(DatabasePath.resolve(Map.of("HOME", "/home/ann")))
        .isEqualTo(Path.of("/home/ann/.local/state/lease/leases.db"));
  }

  @Test
  void emptyAndRelativeXdgStateHomeAreIgnoredAsTheXdgSpecSays() {
    assertThat(DatabasePath.resolve(Map.of("LEASE_DB", "", "XDG_STATE_HOME", "rel", "HOME", "/h")))
        .isEqualTo(Path.of("/h/.local/state/lease/leases.db"));
  }

  @Test
  void withoutAnyOfThemItIsAUsageErrorThatNamesTheWayOut() {
    assertThatThrownBy(() -> DatabasePath.resolve(Map.of()))
        .isInstanceOf(CliFailure.class)
        .hasMessageContaining("use --db PATH, --dir DIR or --jdbc URL")
        .satisfies(e -> assertThat(((CliFailure) e).exitCode()).isEqualTo(ExitCodes.USAGE));
  }
}
