/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which store a command opens: {@code --db}, {@code --dir}, {@code --jdbc}, or the environment's
 * default; with the credentials a database is given, and the mistakes that are usage errors.
 */
class StoreChoiceTest {

  private static final String URL = "jdbc:postgresql://db.example:5432/leases";

  private final FakePlatform platform =
      new FakePlatform(new ProcessIdentity("build-7", "boot-1", "pid:[1]", 100, "ticks:100"));

  private InProcessCli cli(Map<String, String> environment) {
    return new InProcessCli(new MemoryLeaseRepository(), platform, environment);
  }

  @Test
  void jdbcNamesADatabaseWhoseTableIsCreatedUnlessMigrationsOwnIt() {
    InProcessCli cli = cli(Map.of("HOME", "/home/u"));

    assertThat(cli.run("list", "--jdbc", URL).code()).isZero();
    assertThat(cli.run("list", "--jdbc", URL, "--jdbc-table", "t", "--no-create-table").code())
        .isZero();

    assertThat(cli.opened())
        .containsExactly(
            new JdbcTarget(JdbcUrl.parse(URL, "--jdbc"), null, true, null, null),
            new JdbcTarget(JdbcUrl.parse(URL, "--jdbc"), "t", false, null, null));
  }

  @Test
  void theEnvironmentsDatabaseIsTheDefaultAndAnOptionOverridesIt() {
    InProcessCli cli = cli(Map.of("LEASE_JDBC_URL", URL, "HOME", "/home/u"));

    cli.run("list");
    cli.run("list", "--db", "/tmp/x.db");
    cli.run("list", "--dir", "/tmp/d");
    cli.run("list", "--jdbc", URL + "2");

    assertThat(cli.opened())
        .containsExactly(
            new JdbcTarget(JdbcUrl.parse(URL, "env"), null, true, null, null),
            Path.of("/tmp/x.db"),
            Path.of("/tmp/d"),
            new JdbcTarget(JdbcUrl.parse(URL + "2", "--jdbc"), null, true, null, null));
  }

  @Test
  void credentialsComeFromTheUrlsUserPartElseFromTheEnvironment() {
    Map<String, String> environment =
        Map.of("LEASE_JDBC_USER", "env-user", "LEASE_JDBC_PASSWORD", "env-secret");
    InProcessCli cli = cli(environment);

    cli.run("list", "--jdbc", URL);
    cli.run("list", "--jdbc", "jdbc:mariadb://al%40ice:p%3As%2Bs@db/leases?ssl=true");
    cli.run("list", "--jdbc", "jdbc:mariadb://bob@db/leases");

    assertThat(cli.opened())
        .extracting(target -> (JdbcTarget) target)
        .extracting(JdbcTarget::user, JdbcTarget::password, target -> target.url().forDriver())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("env-user", "env-secret", URL),
            org.assertj.core.groups.Tuple.tuple(
                "al@ice", "p:s+s", "jdbc:mariadb://db/leases?ssl=true"),
            org.assertj.core.groups.Tuple.tuple("bob", "env-secret", "jdbc:mariadb://db/leases"));
    assertThat(cli.opened().get(1).toString())
        .contains("al%40ice:***@db", "password=***")
        .doesNotContain("p:s+s", "p%3As");
  }

  @Test
  void twoStoresNamedAtOnceAreAUsageErrorThatShowsNoPassword() {
    InProcessCli cli = cli(Map.of("LEASE_JDBC_URL", URL, "LEASE_DB", "/tmp/leases.db"));

    InProcessCli.Result options =
        cli.run("status", "--db", "x.db", "--jdbc", URL + "?password=hunter2", "k");
    InProcessCli.Result variables = cli.run("status", "k");

    assertThat(options.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(options.err()).contains("--db=PATH, --jdbc=URL are mutually exclusive");
    assertThat(options.err()).doesNotContain("hunter2");
    assertThat(variables.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(variables.err())
        .isEqualTo(
            "lease status: both LEASE_DB and LEASE_JDBC_URL are set, so the store is not clear:"
                + " unset one, or name the store with --db or --jdbc\n");
    assertThat(cli.run("status", "--db", "x.db", "k").code()).as("an option decides").isZero();
    assertThat(cli.opened()).containsExactly(Path.of("x.db").toAbsolutePath());
  }

  @Test
  void aFailureThatQuotesAPasswordIsPrintedWithoutIt() {
    // A driver's message that quotes the URL, or the password itself, as the tool cannot foresee.
    ForwardingLeaseRepository quoting =
        new ForwardingLeaseRepository(new MemoryLeaseRepository()) {
          @Override
          public List<LeaseSnapshot> loadAll() {
            throw new LeaseRepositoryFailure(
                null, "refused jdbc:postgresql://db/x?password=hunter2 for env-secret", null);
          }
        };
    InProcessCli cli =
        new InProcessCli(
            quoting, platform, Map.of("LEASE_JDBC_PASSWORD", "env-secret", "LEASE_DEBUG", "1"));

    InProcessCli.Result list = cli.run("list", "--jdbc", URL + "?password=hunter2");

    assertThat(list.code()).isEqualTo(ExitCodes.REPOSITORY);
    assertThat(list.err())
        .startsWith(
            "lease list: repository failure: refused jdbc:postgresql://db/x?password=*** for ***\n")
        .contains("\tat ", "LeaseRepositoryFailure: refused")
        .doesNotContain("hunter2", "env-secret");
  }

  @Test
  void databaseOptionsWithoutADatabaseOrAnEmptyUrlAreUsageErrors() {
    InProcessCli cli = cli(Map.of("HOME", "/home/u"));

    InProcessCli.Result table = cli.run("list", "--db", "x.db", "--jdbc-table", "t");
    InProcessCli.Result create = cli.run("list", "--no-create-table");
    InProcessCli.Result empty = cli.run("list", "--jdbc", "");
    InProcessCli.Result other = cli.run("list", "--jdbc", "jdbc:oracle:thin:scott/tiger@h:1:x");

    assertThat(table.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(table.err())
        .isEqualTo(
            "lease list: --jdbc-table applies to a database only: give --jdbc URL or set"
                + " LEASE_JDBC_URL\n");
    assertThat(create.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(create.err()).startsWith("lease list: --no-create-table applies to a database");
    assertThat(empty.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(empty.err()).contains("--jdbc must not be empty");
    assertThat(other.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(other.err())
        .isEqualTo(
            "lease list: --jdbc must be a PostgreSQL or MariaDB URL,"
                + " jdbc:postgresql://HOST[:PORT]/DATABASE or jdbc:mariadb://HOST[:PORT]/DATABASE;"
                + " it starts with 'jdbc:oracle:'\n");
    assertThat(cli.opened()).isEmpty();
  }
}
