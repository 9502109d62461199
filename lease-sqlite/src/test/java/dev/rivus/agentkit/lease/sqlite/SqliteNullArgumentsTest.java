/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A null argument is refused as the JDK refuses one: NullPointerException naming the parameter. */
class SqliteNullArgumentsTest {

  @TempDir Path dir;

  @Test
  void openingWithANullPathOrOptionsNamesTheParameterAndCreatesNothing() throws Exception {
    assertThatThrownBy(() -> SqliteLeaseRepository.open(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("databaseFile");
    assertThatThrownBy(() -> SqliteLeaseRepository.open(null, SqliteOptions.defaults()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("databaseFile");
    assertThatThrownBy(() -> SqliteLeaseRepository.open(dir.resolve("leases.db"), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("options");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void optionBuildersNameTheNullParameter() {
    assertThatThrownBy(() -> SqliteOptions.builder().busyWait(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("busyWait");
    assertThatThrownBy(() -> SqliteOptions.builder().clock(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("clock");
  }
}
