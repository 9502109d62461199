/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.store;

import dev.rivus.agentkit.lease.testsupport.PrivateServer;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/**
 * A shared database server a phase attacks, the {@link SharedServer} of lease-jdbc's tests (named
 * by the same environment variables, {@code LEASE_TEST_POSTGRES_URL} and {@code
 * LEASE_TEST_MARIADB_URL}, by default the local servers): what differs between them in the
 * harness's URLs; what differs in SQL (ending a session, finding sessions by client port, sleeping
 * inside a transaction) and the drivers' timeouts are the {@link SharedServer}'s.
 *
 * <p>Thread-safe: immutable.
 */
public enum Database {
  /** PostgreSQL. */
  POSTGRES(SharedServer.POSTGRES),
  /** MariaDB. */
  MARIADB(SharedServer.MARIADB);

  private final SharedServer shared;

  Database(SharedServer shared) {
    this.shared = shared;
  }

  /** The shared server this is, with the SQL that differs between the products. */
  SharedServer shared() {
    return shared;
  }

  /**
   * Returns the server's JDBC URL.
   *
   * @return the environment variable's value, else the local server's
   */
  public String url() {
    return shared.url();
  }

  /**
   * Returns the product's name, for people.
   *
   * @return {@code PostgreSQL} or {@code MariaDB}
   */
  public String product() {
    return shared.product();
  }

  /**
   * Returns the environment variable that names the server.
   *
   * @return {@code LEASE_TEST_POSTGRES_URL} or {@code LEASE_TEST_MARIADB_URL}
   */
  public String urlVariable() {
    return shared.urlVariable();
  }

  /**
   * The URL a worker uses: the server's ({@code url}), reached through {@code port} on 127.0.0.1
   * (its own proxy), with the driver's socket and connect timeouts, so that a statement on a cut
   * network fails within the harness's call deadline instead of hanging.
   */
  String workerUrl(String url, int port) {
    URI address = address(url);
    String proxied =
        url.replaceFirst(
            "//" + java.util.regex.Pattern.quote(address.getRawAuthority()), "//127.0.0.1:" + port);
    return proxied + (proxied.contains("?") ? "&" : "?") + shared.timeoutParameters();
  }

  /** A server's host and port, from its JDBC URL. */
  static URI address(String url) {
    return URI.create(url.substring("jdbc:".length()));
  }

  /**
   * Tells why the server cannot be used now.
   *
   * @return why, or {@code null} if it answered
   */
  public @Nullable String unreachable() {
    return shared.unreachable();
  }

  /**
   * Returns the kind of private server ({@code PrivateServer}) of this product, for the restart
   * phases.
   *
   * @return the kind
   */
  public PrivateServer.Kind privateKind() {
    return this == POSTGRES ? PrivateServer.Kind.POSTGRES : PrivateServer.Kind.MARIADB;
  }

  /**
   * Returns the server a store is on.
   *
   * @param store the phase's store
   * @return the kind, or {@code null} for a store that is not a database
   */
  public static @Nullable Database of(StoreKind store) {
    switch (store.label()) {
      case "postgres":
      case "postgres-restart":
        return POSTGRES;
      case "mariadb":
      case "mariadb-restart":
        return MARIADB;
      default:
        return null;
    }
  }
}
