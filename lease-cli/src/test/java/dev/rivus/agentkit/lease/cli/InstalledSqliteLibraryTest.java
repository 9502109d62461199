/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class InstalledSqliteLibraryTest {

  @Test
  void namesThisMachineAsSqliteJdbcDoes() {
    assumeTrue(
        System.getProperty("os.name").equals("Linux")
            && System.getProperty("os.arch").equals("amd64"),
        "the machine this project is built on");
    // sqlite-jdbc's own name for it, found without running uname.
    assertThat(InstalledSqliteLibrary.platform())
        .isEqualTo(org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS());
  }
}
