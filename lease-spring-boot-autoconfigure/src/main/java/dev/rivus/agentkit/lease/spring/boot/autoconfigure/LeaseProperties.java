/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lease.*} properties. A mutable bean that Spring Boot fills in at start-up; not for use
 * across threads while it does.
 */
@ConfigurationProperties("lease")
public class LeaseProperties {

  /** How long a holder that falls silent keeps its leases (at least 1s). Default 60s. */
  private @Nullable Duration ttl;

  /** How often leases are renewed. Default a quarter of the TTL. */
  private @Nullable Duration heartbeat;

  /**
   * The manager's name, in its threads, messages and the metrics' manager tag. Default
   * spring.application.name, with characters other than letters, digits, dots, underscores and
   * hyphens made hyphens.
   */
  private @Nullable String name;

  private final Jdbc jdbc = new Jdbc();

  private final Sqlite sqlite = new Sqlite();

  /** Makes the properties with their defaults. */
  public LeaseProperties() {}

  /**
   * Returns the TTL.
   *
   * @return the TTL, or null for the library's default
   */
  public @Nullable Duration getTtl() {
    return ttl;
  }

  /**
   * Sets the TTL.
   *
   * @param ttl the TTL
   */
  public void setTtl(@Nullable Duration ttl) {
    this.ttl = ttl;
  }

  /**
   * Returns the heartbeat.
   *
   * @return the heartbeat, or null for a quarter of the TTL
   */
  public @Nullable Duration getHeartbeat() {
    return heartbeat;
  }

  /**
   * Sets the heartbeat.
   *
   * @param heartbeat the heartbeat
   */
  public void setHeartbeat(@Nullable Duration heartbeat) {
    this.heartbeat = heartbeat;
  }

  /**
   * Returns the manager's name.
   *
   * @return the name, or null for spring.application.name
   */
  public @Nullable String getName() {
    return name;
  }

  /**
   * Sets the manager's name.
   *
   * @param name the name
   */
  public void setName(@Nullable String name) {
    this.name = name;
  }

  /**
   * Returns the JDBC store's properties.
   *
   * @return {@code lease.jdbc.*}
   */
  public Jdbc getJdbc() {
    return jdbc;
  }

  /**
   * Returns the SQLite store's properties.
   *
   * @return {@code lease.sqlite.*}
   */
  public Sqlite getSqlite() {
    return sqlite;
  }

  /** {@code lease.jdbc.*}: the store on the application's DataSource. */
  public static class Jdbc {

    /**
     * Whether to create the lease tables on first use. Set false when Flyway or Liquibase creates
     * them from the DDL shipped in lease-jdbc (dev/rivus/agentkit/lease/jdbc/postgresql.sql,
     * mariadb.sql).
     */
    private boolean createTable = true;

    /** The records' table; the generation rows' table is its name with _fence appended. */
    private String tableName = "lease_records";

    /** Makes the defaults. */
    public Jdbc() {}

    /**
     * Returns whether the tables are created on first use.
     *
     * @return true to create them
     */
    public boolean isCreateTable() {
      return createTable;
    }

    /**
     * Sets whether the tables are created on first use.
     *
     * @param createTable true to create them
     */
    public void setCreateTable(boolean createTable) {
      this.createTable = createTable;
    }

    /**
     * Returns the records' table name.
     *
     * @return the table name
     */
    public String getTableName() {
      return tableName;
    }

    /**
     * Sets the records' table name.
     *
     * @param tableName the table name
     */
    public void setTableName(String tableName) {
      this.tableName = tableName;
    }
  }

  /** {@code lease.sqlite.*}: the store used when there is no DataSource or no lease-jdbc. */
  public static class Sqlite {

    /** The SQLite database file, for the processes of one machine. Default ./leases.db. */
    private Path path = Path.of("leases.db");

    /** Makes the defaults. */
    public Sqlite() {}

    /**
     * Returns the database file.
     *
     * @return the path
     */
    public Path getPath() {
      return path;
    }

    /**
     * Sets the database file.
     *
     * @param path the path
     */
    public void setPath(Path path) {
      this.path = path;
    }
  }
}
