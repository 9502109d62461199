/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RedactionTest {

  @Test
  void scrubsThePasswordsOfTheEnvironmentAndOfEveryUrlOfTheCommandLine() {
    Redaction redaction =
        Redaction.of(
            Map.of(
                "LEASE_JDBC_PASSWORD", "envpass",
                "LEASE_JDBC_URL", "jdbc:postgresql://h/d?password=urlpass"),
            "run",
            "--jdbc=jdbc:postgresql://u:optpass@h/d",
            "--jdbc",
            "JDBC:mariadb://h/d?sslpassword=sslpass",
            "k",
            "--",
            "jdbc:postgresql://h/d?password=commandpass");

    assertThat(
            redaction.scrub(
                "envpass urlpass optpass sslpass and the command's own commandpass stays"))
        .isEqualTo("*** *** *** *** and the command's own commandpass stays");
  }

  @Test
  void aSecretThatContainsAnotherIsMaskedWhole() {
    Redaction redaction =
        Redaction.of(
            Map.of("LEASE_JDBC_PASSWORD", "abc"), "--jdbc=jdbc:postgresql://h/d?password=xabcx");

    assertThat(redaction.scrub("xabcx abc")).isEqualTo("*** ***");
  }

  @Test
  void withoutSecretsNothingChanges() {
    Redaction redaction = Redaction.of(Map.of("LEASE_JDBC_PASSWORD", ""), "list", "--db", "x");

    assertThat(redaction.scrub("lease list: no lease database at x"))
        .isEqualTo("lease list: no lease database at x");
  }
}
