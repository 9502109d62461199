/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * PostgreSQL's {@code LISTEN}, received through the driver's {@link PGConnection}: the one class
 * that needs the PostgreSQL driver, loaded only for a PostgreSQL database, so that applications on
 * MariaDB need not have it. A pooled connection (HikariCP's proxy) is unwrapped to the driver's.
 */
final class PostgresReleaseNotices implements ReleaseNotices {

  private final String channel;

  PostgresReleaseNotices(String channel) {
    this.channel = channel;
  }

  @Override
  public void unlisten(Connection connection) throws SQLException {
    try (Statement unlisten = connection.createStatement()) {
      unlisten.execute("UNLISTEN " + channel);
    }
  }

  @Override
  public Receiver listen(Connection connection) throws SQLException {
    PGConnection driver;
    try {
      driver = connection.unwrap(PGConnection.class);
    } catch (SQLException | LinkageError notPostgres) {
      throw new NotSupported(
          "the connection cannot be unwrapped to the PostgreSQL driver's to receive notices",
          notPostgres);
    }
    Connections.autoCommit(connection);
    try (Statement listen = connection.createStatement()) {
      listen.execute("LISTEN " + channel); // the channel is hex digits after a fixed prefix
    }
    return timeoutMillis -> {
      PGNotification[] notices = driver.getNotifications(timeoutMillis);
      List<String> payloads = new ArrayList<>();
      if (notices != null) {
        for (PGNotification notice : notices) {
          if (channel.equals(notice.getName())) {
            payloads.add(notice.getParameter());
          }
        }
      }
      return payloads;
    };
  }
}
