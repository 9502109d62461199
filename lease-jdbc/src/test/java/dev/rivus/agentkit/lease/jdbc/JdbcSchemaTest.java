/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The schema: the shipped DDL files, created by an explicit call or by a migration tool, and the
 * clear failures for a table that is missing, someone else's, or of another version.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JdbcSchemaTest {

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void theShippedDdlFileRunByAMigrationToolMakesATableThatOpens(TestServer server)
      throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      String file = server == TestServer.POSTGRES ? "postgresql.sql" : "mariadb.sql";
      String script;
      try (InputStream in = JdbcLeaseRepository.class.getResourceAsStream(file)) {
        assertThat(in).as("the DDL file %s in the jar", file).isNotNull();
        script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      // As Flyway or the mariadb client would: the table renamed; on PostgreSQL the whole script
      // in one go, on MariaDB statement by statement, each ending as its DELIMITER lines say.
      try (Connection connection = DriverManager.getConnection(server.url());
          Statement statement = connection.createStatement()) {
        for (String sql : asAClientSplitsIt(server, script.replace("lease_records", db.table))) {
          statement.execute(sql);
        }
      }

      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().build())) {
        repository.save(Samples.firstWrite("migrated", "h"));
        assertThat(repository.load("migrated")).isPresent();
      }
      if (server == TestServer.MARIADB) {
        assertThat(((MariaDbDialect) Opening.checkTables(db.pool, db.table)).callsRoutine())
            .as("the acquisition procedure the script made, in use")
            .isTrue();
      }
    }
  }

  /** The script's statements, as the server's own command-line client sends them. */
  private static List<String> asAClientSplitsIt(TestServer server, String script) {
    if (server == TestServer.POSTGRES) {
      return List.of(script);
    }
    List<String> statements = new ArrayList<>();
    String delimiter = ";";
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\n", -1)) {
      if (line.startsWith("DELIMITER ")) {
        delimiter = line.substring("DELIMITER ".length()).trim();
      } else if (line.endsWith(delimiter)) {
        current.append(line, 0, line.length() - delimiter.length());
        statements.add(current.toString());
        current.setLength(0);
      } else {
        current.append(line).append('\n');
      }
    }
    return statements;
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aTableOfTheSameColumnsWithoutOurCommentIsRefused(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      db.create().close();
      server.run(
          server == TestServer.POSTGRES
              ? "COMMENT ON TABLE " + db.table + " IS NULL"
              : "ALTER TABLE " + db.table + " COMMENT = ''");

      assertThatThrownBy(() -> JdbcLeaseRepository.open(db.pool, db.options().build()))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("'" + db.table + "' is not a lease table of lease-jdbc")
          .hasMessageContaining("comment is empty");
      assertThatThrownBy(
              () -> JdbcLeaseRepository.open(db.pool, db.options().createIfMissing(true).build()))
          .as("create does not adopt it either")
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("is not a lease table of lease-jdbc");
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void anotherSchemaVersionIsRefused(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      db.create().close();
      String comment = "'lease-jdbc lease records, schema 2'";
      server.run(
          server == TestServer.POSTGRES
              ? "COMMENT ON TABLE " + db.table + " IS " + comment
              : "ALTER TABLE " + db.table + " COMMENT = " + comment);

      assertThatThrownBy(() -> JdbcLeaseRepository.open(db.pool, db.options().build()))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("has schema version 2")
          .hasMessageContaining("reads schema 1 only");
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void aMissingGenerationTableIsNamed(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      db.create().close();
      server.run("DROP TABLE " + db.table + "_fence");

      assertThatThrownBy(() -> JdbcLeaseRepository.open(db.pool, db.options().build()))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining("generation table '" + db.table + "_fence' does not exist");
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void createMakesAMissingGenerationTableAsItsMessageSays(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      db.create().close();
      server.run("DROP TABLE " + db.table + "_fence");

      try (JdbcLeaseRepository repository = db.create()) {
        repository.save(Samples.firstWrite("fenced-again", "h"));
        assertThat(repository.load("fenced-again")).isPresent();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(TestServer.class)
  void processesCreatingTheSchemaAtOnceAllSucceed(TestServer server) throws Exception {
    try (TestDatabase db = TestDatabase.on(server)) {
      int creators = 6;
      ExecutorService threads = Executors.newFixedThreadPool(creators);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < creators; i++) {
          done.add(
              threads.submit(
                  () -> {
                    start.await();
                    db.create().close();
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> future : done) {
          future.get(60, TimeUnit.SECONDS);
        }
      } finally {
        threads.shutdownNow();
      }
      try (JdbcLeaseRepository repository =
          JdbcLeaseRepository.open(db.pool, db.options().build())) {
        assertThat(repository.loadAll()).isEmpty();
      }
    }
  }
}
