/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class VersionProviderTest {

  @Test
  void theBuiltToolNamesItsVersionAndCommit() {
    String[] version = new VersionProvider().getVersion();

    assertThat(version)
        .singleElement()
        .asString()
        .matches("lease \\S+ \\(commit [0-9a-f]{12}(\\+dirty)?\\)");
  }

  @Test
  void aBuildOutsideGitSaysTheCommitIsUnknown() {
    Properties build = new Properties();
    build.setProperty("version", "1.2.3");
    build.setProperty("commit", "${git.commit.id.abbrev}");

    assertThat(VersionProvider.describe(build)).isEqualTo("1.2.3 (commit unknown)");
  }
}
