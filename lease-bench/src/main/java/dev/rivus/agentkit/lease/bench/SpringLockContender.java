/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.locks.Lock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} on a {@link DefaultLockRepository} (its defaults, a
 * {@link DataSourceTransactionManager}), on a HikariCP pool, on the {@code INT_LOCK} table of
 * Spring's own DDL for PostgreSQL ({@code schema-postgresql.sql} in the jar) under a fresh prefix.
 * A cycle is {@code obtain(key).lock()} and {@code unlock()}.
 */
final class SpringLockContender implements CycleContender {

  private static final Pattern CREATE_LOCK_TABLE =
      Pattern.compile("CREATE TABLE INT_LOCK\\s*\\(.*?\\);", Pattern.DOTALL);

  private final JdbcServers server;
  private final String prefix = JdbcServers.freshTable("si") + "_";
  private final HikariDataSource pool;
  private final DefaultLockRepository repository;
  private final JdbcLockRegistry registry;

  SpringLockContender(JdbcServers server) throws Exception {
    this.server = server;
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(lockTableDdl().replace("INT_", prefix.toUpperCase(Locale.ROOT)));
    }
    pool = server.pool("lease-bench-spring");
    repository = new DefaultLockRepository(pool);
    repository.setPrefix(prefix.toUpperCase(Locale.ROOT));
    repository.setTransactionManager(new DataSourceTransactionManager(pool));
    repository.afterPropertiesSet();
    repository.afterSingletonsInstantiated();
    repository.start();
    registry = new JdbcLockRegistry(repository);
  }

  /** The {@code CREATE TABLE INT_LOCK} statement of Spring's shipped DDL for PostgreSQL. */
  static String lockTableDdl() throws IOException {
    String script;
    try (InputStream in =
        DefaultLockRepository.class.getResourceAsStream(
            "/org/springframework/integration/jdbc/schema-postgresql.sql")) {
      if (in == null) {
        throw new IOException("schema-postgresql.sql is not in spring-integration-jdbc");
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Matcher create = CREATE_LOCK_TABLE.matcher(script);
    if (!create.find()) {
      throw new IOException("no CREATE TABLE INT_LOCK in schema-postgresql.sql");
    }
    String ddl = create.group();
    return ddl.substring(0, ddl.length() - 1);
  }

  @Override
  public Cycle forThread(int index) {
    String key = "bench/" + index;
    return () -> {
      Lock lock = registry.obtain(key);
      lock.lock();
      lock.unlock();
      return 1;
    };
  }

  @Override
  public void close() throws Exception {
    repository.stop();
    repository.close();
    pool.close();
    server.drop(prefix + "lock");
  }
}
