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
import dev.rivus.agentkit.lease.spi.StoreRequest;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which store a command opens: {@code --db}, {@code --dir}, {@code --jdbc}, {@code --store}, or the
 * environment's default; with the credentials a database is given, and the mistakes that are usage
 * errors.
 */
class StoreChoiceTest {

  private static final String URL = "jdbc:postgresql://db.example:5432/leases";

  private final FakePlatform platform =
      new FakePlatform(new ProcessIdentity("build-7", "boot-1", "pid:[1]", 100, "ticks:100"));

  private InProcessCli cli(Map<String, String> environment) {
    return new InProcessCli(new MemoryLeaseRepository(), platform, environment);
  }

  /** A request as the tests compare them: its scheme, URI and settings. */
  private static String named(StoreRequest request) {
    return request.scheme() + " " + request.uri() + " " + request.settings();
  }

  private static List<String> named(List<StoreRequest> requests) {
    return requests.stream().map(StoreChoiceTest::named).toList();
  }

  /** Runs {@code lease} in this JVM on the installed stores, as the product opens them. */
  private InProcessCli.Result onInstalledStores(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            Map.of("HOME", "/home/u"),
            new StandardRepositories(),
            platform,
            platform.wallClock(),
            platform,
            platform::currentProcess,
            platform);
    int code = LeaseCli.execute(context, new PrintWriter(out), new PrintWriter(err), args);
    return new InProcessCli.Result(code, out.toString(), err.toString());
  }

  @Test
  void jdbcNamesADatabaseWhoseTableIsCreatedUnlessMigrationsOwnIt() {
    InProcessCli cli = cli(Map.of("HOME", "/home/u"));

    assertThat(cli.run("list", "--jdbc", URL).code()).isZero();
    assertThat(cli.run("list", "--jdbc", URL, "--jdbc-table", "t", "--no-create-table").code())
        .isZero();

    assertThat(named(cli.opened()))
        .containsExactly("jdbc " + URL + " {}", "jdbc " + URL + " {create-table=false, table=t}");
    StoreRequest request = cli.opened().get(1);
    assertThat(request.create()).as("list only reads").isFalse();
    assertThat(request.spelling("table", "table")).isEqualTo("--jdbc-table");
    assertThat(request.spelling("create-table", "create-table")).isEqualTo("--no-create-table");
    assertThat(request.spelling(StoreRequest.LOCATION, "")).isEqualTo("--jdbc");
  }

  @Test
  void theEnvironmentsDatabaseIsTheDefaultAndAnOptionOverridesIt() {
    InProcessCli cli = cli(Map.of("LEASE_JDBC_URL", URL, "HOME", "/home/u"));

    cli.run("list");
    cli.run("list", "--db", "/tmp/x.db");
    cli.run("list", "--dir", "/tmp/d");
    cli.run("list", "--jdbc", URL + "2");
    cli.run("list", "--store", "dir:/tmp/e");

    assertThat(named(cli.opened()))
        .containsExactly(
            "jdbc " + URL + " {}",
            "sqlite sqlite:/tmp/x.db {}",
            "dir dir:/tmp/d {}",
            "jdbc " + URL + "2 {}",
            "dir dir:/tmp/e {}");
    assertThat(cli.opened().get(0).spelling(StoreRequest.LOCATION, "")).isEqualTo("LEASE_JDBC_URL");
  }

  @Test
  void storeNamesAnyStoreByItsSchemeAndTheDatabaseOptionsGoWithAJdbcUri() {
    InProcessCli cli = cli(Map.of("HOME", "/home/u", "LEASE_JDBC_USER", "env-user"));

    cli.run("run", "--store", "sqlite:/tmp/x.db", "k", "--", "true");
    cli.run("list", "--store=" + URL, "--jdbc-table", "t");
    cli.run("list", "--store", "redis://cache:6379/0");
    InProcessCli.Result table = cli.run("list", "--store", "dir:/tmp/d", "--jdbc-table", "t");

    assertThat(named(cli.opened()))
        .containsExactly(
            "sqlite sqlite:/tmp/x.db {}",
            "jdbc " + URL + " {table=t, user=env-user}",
            "redis redis://cache:6379/0 {}");
    StoreRequest run = cli.opened().get(0);
    assertThat(run.create()).isTrue();
    assertThat(run.holding()).as("run holds a lease").isTrue();
    assertThat(run.spelling(StoreRequest.CALLER, "")).isEqualTo("this command");
    assertThat(table.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(table.err())
        .isEqualTo(
            "lease list: --jdbc-table applies to a database only: give --jdbc URL or set"
                + " LEASE_JDBC_URL\n");
  }

  @Test
  void theEnvironmentsCredentialsGoToTheDatabaseAsSettingsAndAreNeverShown() {
    Map<String, String> environment =
        Map.of("LEASE_JDBC_USER", "env-user", "LEASE_JDBC_PASSWORD", "env-secret");
    InProcessCli cli = cli(environment);

    cli.run("list", "--jdbc", URL);
    cli.run("list", "--jdbc", "jdbc:mariadb://al%40ice:p%3As%2Bs@db/leases?ssl=true");
    cli.run("list", "--db", "/tmp/x.db");

    // Which one the driver is given, the URL's or these, is the jdbc store's (lease-jdbc's test).
    assertThat(cli.opened())
        .extracting(StoreRequest::settings)
        .containsExactly(
            Map.of("user", "env-user", "password", "env-secret"),
            Map.of("user", "env-user", "password", "env-secret"),
            Map.of());
    assertThat(cli.opened().get(1).toString())
        .contains("jdbc", "password")
        .doesNotContain("p:s+s", "p%3As", "env-secret", "al%40ice");
  }

  @Test
  void aUrlOfAnotherDatabaseOrAStoreOfNoKnownSchemeIsAUsageError() {
    InProcessCli.Result other =
        onInstalledStores("list", "--jdbc", "jdbc:oracle:thin:scott/tiger@h:1:x");
    InProcessCli.Result unknown = onInstalledStores("list", "--store", "redis://u:pw@cache/0");
    InProcessCli.Result noScheme = onInstalledStores("list", "--store", "/tmp/leases.db");
    InProcessCli.Result table = onInstalledStores("list", "--store", URL, "--jdbc-table", "select");

    assertThat(other.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(other.err())
        .isEqualTo(
            "lease list: --jdbc must be a PostgreSQL or MariaDB URL,"
                + " jdbc:postgresql://HOST[:PORT]/DATABASE or jdbc:mariadb://HOST[:PORT]/DATABASE;"
                + " it starts with 'jdbc:oracle:'\n");
    assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err())
        .isEqualTo(
            "lease list: no lease store provider for scheme 'redis' (known: dir, jdbc, sqlite):"
                + " is its jar on the class path?\n");
    assertThat(noScheme.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(noScheme.err())
        .isEqualTo(
            "lease list: --store must be SCHEME:LOCATION, such as sqlite:PATH, dir:PATH or"
                + " jdbc:postgresql://HOST/DATABASE\n");
    assertThat(table.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(table.err())
        .startsWith(
            "lease list: --jdbc-table: table name 'select' is not allowed: it is a reserved word"
                + " of SQL");
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
    InProcessCli.Result store = cli.run("status", "--store", "dir:d", "--db", "x.db", "k");
    assertThat(store.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(store.err()).contains("--db=PATH, --store=URI are mutually exclusive");
    assertThat(cli.run("status", "--db", "x.db", "k").code()).as("an option decides").isZero();
    assertThat(named(cli.opened()))
        .containsExactly("sqlite sqlite:" + Path.of("x.db").toAbsolutePath() + " {}");
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
    InProcessCli.Result emptyStore = cli.run("list", "--store", " ");

    assertThat(table.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(table.err())
        .isEqualTo(
            "lease list: --jdbc-table applies to a database only: give --jdbc URL or set"
                + " LEASE_JDBC_URL\n");
    assertThat(create.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(create.err()).startsWith("lease list: --no-create-table applies to a database");
    assertThat(empty.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(empty.err()).contains("--jdbc must not be empty");
    assertThat(emptyStore.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(emptyStore.err()).contains("--store must not be empty");
    assertThat(cli.opened()).isEmpty();
  }

  @Test
  void aNamedStoreWhoseDirectoryIsMissingIsRefusedAndNothingIsCreated(@TempDir Path temp) {
    InProcessCli cli = cli(Map.of("HOME", "/home/u"));
    Path db = temp.resolve("jbos").resolve("leases.db");
    Path dir = temp.resolve("jbos").resolve("records");

    List<InProcessCli.Result> refused =
        List.of(
            cli.run("run", "--db", db.toString(), "k", "--", "true"),
            cli.run("status", "--db", db.toString(), "k"),
            cli.run("run", "--store", "sqlite:" + db, "k", "--", "true"),
            cli.run("release", "--dir", dir.toString(), "k", "--generation", "1"),
            cli.run("list", "--store", "dir:" + dir));

    assertThat(refused).extracting(InProcessCli.Result::code).containsOnly(ExitCodes.REPOSITORY);
    assertThat(refused.get(0).err())
        .isEqualTo(
            "lease run: the directory of the store '"
                + db
                + "' does not exist: "
                + db.getParent()
                + " (create it first, or check the path)\n");
    assertThat(refused.get(3).err())
        .isEqualTo(
            "lease release: the directory of the store '"
                + dir
                + "' does not exist: "
                + dir.getParent()
                + " (create it first, or check the path)\n");
    assertThat(cli.opened()).as("no store was opened").isEmpty();
    assertThat(temp.resolve("jbos")).doesNotExist();
  }

  @Test
  void aNamedStoreInAnExistingDirectoryIsOpenedAndTheDefaultGetsItsDirectory(@TempDir Path temp) {
    InProcessCli cli = cli(Map.of("XDG_STATE_HOME", temp.resolve("state").toString()));

    assertThat(cli.run("run", "--db", temp.resolve("new.db").toString(), "k", "--", "true").code())
        .isZero();
    assertThat(cli.run("run", "--dir", temp.resolve("new").toString(), "k", "--", "true").code())
        .isZero();
    assertThat(cli.run("run", "k", "--", "true").code()).as("the default store").isZero();

    assertThat(named(cli.opened()))
        .containsExactly(
            "sqlite sqlite:" + temp.resolve("new.db") + " {}",
            "dir dir:" + temp.resolve("new") + " {}",
            "sqlite sqlite:" + temp.resolve("state/lease/leases.db") + " {}");
  }

  @Test
  void theDefaultStateDirectoryIsStillCreated(@TempDir Path temp) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            Map.of("XDG_STATE_HOME", temp.resolve("state").toString()),
            new StandardRepositories(),
            platform,
            platform.wallClock(),
            platform,
            platform::currentProcess,
            platform);

    int code =
        LeaseCli.execute(
            context, new PrintWriter(out), new PrintWriter(err), "prune", "--older-than", "1d");

    assertThat(code).as("%s", err).isZero();
    assertThat(temp.resolve("state/lease/leases.db")).isRegularFile();
  }

  @Test
  void aTextFileOrAnotherApplicationsDatabaseIsNotALeaseDatabaseAndIsLeftAlone(@TempDir Path temp)
      throws Exception {
    Path text = temp.resolve("hello.txt");
    Files.writeString(text, "hello\n");
    Path other = temp.resolve("other.db");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + other);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE notes (body TEXT)");
    }

    for (Path file : List.of(text, other)) {
      for (String[] args :
          List.of(
              new String[] {"run", "--db", file.toString(), "k", "--", "true"},
              new String[] {"status", "--db", file.toString(), "k"})) {
        InProcessCli.Result refused = onInstalledStores(args);

        assertThat(refused.code()).as("%s", refused).isEqualTo(ExitCodes.REPOSITORY);
        assertThat(refused.err())
            .startsWith(
                "lease " + args[0] + ": repository failure: " + file + " is not a lease database")
            .doesNotContain("truncated", "delete");
      }
    }
    assertThat(Files.readString(text)).isEqualTo("hello\n");
    try (var files = Files.list(temp)) {
      assertThat(files.map(file -> file.getFileName().toString()))
          .as("nothing was left beside them")
          .containsExactlyInAnyOrder("hello.txt", "other.db");
    }
  }
}
