/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.spi.LeaseStores;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The store secrets one run of {@code lease} was given, and their removal from what it prints: the
 * password of {@code $LEASE_JDBC_PASSWORD} and those written in a store's URI ({@code --jdbc},
 * {@code --store}, {@code $LEASE_JDBC_URL}, or any argument that looks like one), as the store's
 * provider finds them. Messages of drivers and pools may quote a URL or a part of it; every error
 * line passes through {@link #scrub} before it is printed, so that a secret never reaches the
 * terminal or a log, whatever quoted it. Immutable.
 */
final class Redaction {

  /** The password for the database, when the URL does not carry one. */
  static final String LEASE_JDBC_PASSWORD = "LEASE_JDBC_PASSWORD";

  /** What a secret is replaced with wherever the tool shows a message. */
  static final String MASK = "***";

  /** The start of a text that may be a URI: its scheme and colon. */
  private static final Pattern URI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);

  private final List<String> secrets;

  private Redaction(List<String> secrets) {
    this.secrets = secrets;
  }

  /**
   * Collects the secrets of a run. The store providers are looked for only if something may be a
   * URI.
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
    String url = environment.get(RepositoryOptions.LEASE_JDBC_URL);
    List<String> uris = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals(CommandDelimiter.DELIMITER)) {
        break;
      }
      // "--jdbc=URL", "--store URI", or a URI where it does not belong: scrub it wherever it is.
      String value = arg.replaceFirst("^--(jdbc|store)=", "");
      if (URI.matcher(value).matches()) {
        uris.add(value);
      }
    }
    if (url != null || !uris.isEmpty()) {
      LeaseStores stores = LeaseStores.installed();
      if (url != null) {
        // The database's URL, whatever it starts with, as --jdbc's.
        secrets.addAll(stores.secretsIn("jdbc", url));
      }
      uris.forEach(uri -> secrets.addAll(stores.secretsIn(uri)));
    }
    // The longest first, so that a secret that contains another is masked whole.
    secrets.sort(Comparator.comparingInt(String::length).reversed());
    return new Redaction(List.copyOf(secrets));
  }

  /**
   * Replaces every secret in {@code text} with {@value #MASK}.
   *
   * @param text a line to print
   * @return the line without secrets
   */
  String scrub(String text) {
    String scrubbed = text;
    for (String secret : secrets) {
      scrubbed = scrubbed.replace(secret, MASK);
    }
    return scrubbed;
  }
}
