/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The shared servers' URLs from the environment, and the rule for a missing one. */
class SharedServerTest {

  private static final String LOCAL = "jdbc:postgresql://127.0.0.1:5432/test?user=root";

  @Test
  void aVariableNamesTheServerAndUnsetOrBlankMeansTheLocalOne() {
    String variable = "LEASE_TEST_POSTGRES_URL";
    String other = "jdbc:postgresql://db.example:5433/other?user=ci";

    assertThat(SharedServer.fromEnvironment(Map.of(variable, other), variable, LOCAL))
        .isEqualTo(other);
    assertThat(SharedServer.fromEnvironment(Map.of(), variable, LOCAL)).isEqualTo(LOCAL);
    assertThat(SharedServer.fromEnvironment(Map.of(variable, " "), variable, LOCAL))
        .isEqualTo(LOCAL);
  }

  @Test
  void testsAndBenchmarksHaveVariablesOfTheirOwn() {
    assertThat(SharedServer.POSTGRES.urlVariable()).isEqualTo("LEASE_TEST_POSTGRES_URL");
    assertThat(SharedServer.MARIADB.urlVariable()).isEqualTo("LEASE_TEST_MARIADB_URL");
    assertThat(SharedServer.POSTGRES.benchmarkUrlVariable()).isEqualTo("LEASE_BENCH_POSTGRES_URL");
    assertThat(SharedServer.MARIADB.benchmarkUrlVariable()).isEqualTo("LEASE_BENCH_MARIADB_URL");
    assertThat(SharedServer.POSTGRES.product()).isEqualTo("PostgreSQL");
    assertThat(SharedServer.MARIADB.product()).isEqualTo("MariaDB");
  }

  @Test
  void aMissingServerSkipsTheTestOrFailsItOnCi() {
    Throwable thrown =
        catchThrowable(
            () -> TestEnvironment.skipOrFail("X at url unreachable: no", "the server is required"));

    if (TestEnvironment.isCi()) {
      assertThat(thrown)
          .isInstanceOf(AssertionFailedError.class)
          .hasMessage("X at url unreachable: no (CI=true: the server is required)");
    } else {
      assertThat(thrown)
          .isInstanceOf(TestAbortedException.class)
          .hasMessage("X at url unreachable: no");
    }
  }
}
