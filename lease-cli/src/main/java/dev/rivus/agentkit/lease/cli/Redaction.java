/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The database secrets one run of {@code lease} was given, and their removal from what it prints:
 * the password of {@code $LEASE_JDBC_PASSWORD} and those written in a database URL ({@code --jdbc},
 * {@code $LEASE_JDBC_URL}, or any argument that looks like one). Messages of drivers and pools may
 * quote a URL or a part of it; every error line passes through {@link #scrub} before it is printed,
 * so that a secret never reaches the terminal or a log, whatever quoted it. Immutable.
 */
final class Redaction {

  /** The password for the database, when the URL does not carry one. */
  static final String LEASE_JDBC_PASSWORD = "LEASE_JDBC_PASSWORD";

  private final List<String> secrets;

  private Redaction(List<String> secrets) {
    this.secrets = secrets;
  }

  /**
   * Collects the secrets of a run.
   *
   * @param environment the process environment
   * @param args the command line; only what comes before {@code --} is lease's own
   * @return the secrets to scrub
   */
  static Redaction of(Map<String, String> environment, String... args) {
    List<String> secrets = new ArrayList<>();
    String password = environment.get(LEASE_JDBC_PASSWORD);
    if (password != null && !password.isEmpty()) {
      secrets.add(password);
    }
    String url = environment.get(JdbcTarget.LEASE_JDBC_URL);
    if (url != null) {
      secrets.addAll(JdbcUrl.secretsIn(url));
    }
    for (String arg : args) {
      if (arg.equals(CommandDelimiter.DELIMITER)) {
        break;
      }
      // "--jdbc=URL", "--jdbc URL", or a URL where it does not belong: scrub it wherever it is.
      String value = arg.startsWith("--jdbc=") ? arg.substring("--jdbc=".length()) : arg;
      if (value.regionMatches(true, 0, "jdbc:", 0, "jdbc:".length())) {
        secrets.addAll(JdbcUrl.secretsIn(value));
      }
    }
    // The longest first, so that a secret that contains another is masked whole.
    secrets.sort(Comparator.comparingInt(String::length).reversed());
    return new Redaction(List.copyOf(secrets));
  }

  /**
   * Replaces every secret in {@code text} with {@value JdbcUrl#MASK}.
   *
   * @param text a line to print
   * @return the line without secrets
   */
  String scrub(String text) {
    String scrubbed = text;
    for (String secret : secrets) {
      scrubbed = scrubbed.replace(secret, JdbcUrl.MASK);
    }
    return scrubbed;
  }
}
