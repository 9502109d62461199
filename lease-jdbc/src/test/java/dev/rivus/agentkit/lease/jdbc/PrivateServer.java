/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A database server owned by one test class, which it may stop and start again: a PostgreSQL
 * cluster or a MariaDB data directory in a temporary directory, on a free port of the loopback
 * interface, with durability traded for speed ({@code fsync=off}; InnoDB flushing once a second).
 * The shared servers of {@link TestServer} must never be restarted: other tests run on them.
 *
 * <p>Without the server's binaries the test is reported as skipped, with the reason; on CI ({@code
 * CI=true}) it fails instead. Not thread-safe: one test thread drives it.
 */
abstract class PrivateServer implements AutoCloseable {

  private static final long START_TIMEOUT_SECONDS = 60;

  final Path directory;
  final int port;
  private final Thread cleanup = new Thread(this::stopQuietly, "private-server-cleanup");
  private boolean running;

  private PrivateServer(Path directory, int port) {
    this.directory = directory;
    this.port = port;
  }

  /** Creates, starts and prepares (a database {@code test}) a private server of {@code kind}. */
  static PrivateServer start(TestServer kind) throws Exception {
    PrivateServer server =
        kind == TestServer.POSTGRES ? PrivatePostgres.create() : PrivateMariaDb.create();
    Runtime.getRuntime().addShutdownHook(server.cleanup); // a test JVM killed mid-test
    try {
      server.start();
      server.execute(server.adminUrl(), "CREATE DATABASE test");
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The URL of its database {@code test}, as user root without a password. */
  abstract String url();

  /** A URL for administration, valid before the database {@code test} exists. */
  abstract String adminUrl();

  /** Starts the server on its port and data directory, and waits until it answers. */
  final void start() throws Exception {
    startProcess();
    running = true;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    SQLException last = null;
    while (System.nanoTime() - deadline < 0) {
      try (Connection connection = DriverManager.getConnection(adminUrl())) {
        if (connection.isValid(5)) {
          return;
        }
      } catch (SQLException notYet) {
        last = notYet;
      }
      if (!isProcessAlive()) {
        running = false;
        throw new IllegalStateException(this + " exited while starting; " + logTail(), last);
      }
      TimeUnit.MILLISECONDS.sleep(50); // polling a server that is starting: nothing to wait on
    }
    throw new IllegalStateException(
        this + " did not answer within " + START_TIMEOUT_SECONDS + " s; " + logTail(), last);
  }

  /** Stops the server (its sessions end, as in a restart), and waits until it has stopped. */
  final void stop() throws Exception {
    if (running) {
      running = false;
      stopProcess();
    }
  }

  abstract void startProcess() throws Exception;

  abstract void stopProcess() throws Exception;

  abstract String logTail();

  /** Whether the server's process may still be starting or running. */
  boolean isProcessAlive() {
    return true;
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (Exception ignored) {
      // best effort: the JVM is exiting, or the test failed already
    }
  }

  /** Stops the server and deletes its directory. */
  @Override
  public void close() throws Exception {
    try {
      stop();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException exiting) {
        // the hook runs anyway
      }
      deleteRecursively(directory);
    }
  }

  void execute(String url, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The first of {@code candidates} that is an executable file, or null. */
  static @Nullable Path executable(String... candidates) {
    for (String candidate : candidates) {
      Path path = Path.of(candidate);
      if (Files.isExecutable(path)) {
        return path;
      }
    }
    return null;
  }

  /** Skips the test (fails it on CI) when a server's binaries are missing. */
  static void requireBinaries(@Nullable Path binary, String what) {
    if (binary == null) {
      String message = what + " not found: this test needs a private server it can restart";
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail(message + " (CI=true: the binaries are required)");
      }
      Assumptions.assumeTrue(false, message);
    }
  }

  /** Runs a command to its end, failing with its output if it fails. */
  static void run(Path log, String... command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    if (!process.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " did not finish; " + tail(log));
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", command) + " failed (" + process.exitValue() + "); " + tail(log));
    }
  }

  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "log: "
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "no log (" + e.getMessage() + ")";
    }
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * PostgreSQL through {@code initdb} and {@code pg_ctl}, run as the user {@code postgres} when the
   * test runs as root (PostgreSQL refuses to run as root).
   */
  private static final class PrivatePostgres extends PrivateServer {
    private final Path bin;
    private final Path log;

    private PrivatePostgres(Path directory, int port, Path bin) {
      super(directory, port);
      this.bin = bin;
      this.log = directory.resolve("server.log");
    }

    static PrivatePostgres create() throws Exception {
      Path initdb = newestPostgresBinary("initdb");
      requireBinaries(initdb, "PostgreSQL's initdb (/usr/lib/postgresql/*/bin)");
      Path directory = Files.createTempDirectory("lease-private-pg");
      PrivatePostgres server = new PrivatePostgres(directory, freePort(), initdb.getParent());
      try {
        if (isRoot()) {
          Files.setOwner(
              directory,
              directory
                  .getFileSystem()
                  .getUserPrincipalLookupService()
                  .lookupPrincipalByName("postgres"));
        }
        server.asOwner(
            "initdb",
            "-D",
            server.data(),
            "-U",
            "root",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions");
      } catch (Exception | Error e) {
        deleteRecursively(directory);
        throw e;
      }
      return server;
    }

    private static @Nullable Path newestPostgresBinary(String name) throws IOException {
      Path root = Path.of("/usr/lib/postgresql");
      if (!Files.isDirectory(root)) {
        return null;
      }
      try (Stream<Path> versions = Files.list(root)) {
        return versions
            .map(version -> version.resolve("bin").resolve(name))
            .filter(Files::isExecutable)
            .max(Comparator.comparing(path -> versionOf(path.getParent().getParent())))
            .orElse(null);
      }
    }

    private static int versionOf(Path directory) {
      String name = directory.getFileName().toString();
      return name.matches("[0-9]{1,4}") ? Integer.parseInt(name) : -1;
    }

    private String data() {
      return directory.resolve("data").toString();
    }

    private void asOwner(String binary, String... arguments) throws Exception {
      List<String> command = new ArrayList<>();
      if (isRoot()) {
        command.addAll(List.of("runuser", "-u", "postgres", "--"));
      }
      command.add(bin.resolve(binary).toString());
      command.addAll(List.of(arguments));
      run(directory.resolve("commands.log"), command.toArray(String[]::new));
    }

    @Override
    String url() {
      return "jdbc:postgresql://127.0.0.1:" + port + "/test?user=root";
    }

    @Override
    String adminUrl() {
      return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=root&connectTimeout=5";
    }

    @Override
    void startProcess() throws Exception {
      String options =
          String.join(
              " ",
              "-p " + port,
              "-k " + directory,
              "-c listen_addresses=127.0.0.1",
              "-c fsync=off",
              "-c full_page_writes=off",
              "-c shared_buffers=16MB",
              "-c max_connections=50");
      asOwner(
          "pg_ctl",
          "-D",
          data(),
          "-l",
          log.toString(),
          "-w",
          "-t",
          "60",
          "-s",
          "-o",
          options,
          "start");
    }

    @Override
    void stopProcess() throws Exception {
      // Fast: sessions are ended at once, as in a restart by an administrator.
      asOwner("pg_ctl", "-D", data(), "-w", "-t", "60", "-s", "-m", "fast", "stop");
    }

    @Override
    String logTail() {
      return tail(log);
    }

    @Override
    public String toString() {
      return "private PostgreSQL on port " + port + " in " + directory;
    }
  }

  /** MariaDB: {@code mariadbd} as a child of this JVM, on an empty data directory. */
  private static final class PrivateMariaDb extends PrivateServer {
    private final Path mariadbd;
    private final Path log;
    private @Nullable Process process;

    private PrivateMariaDb(Path directory, int port, Path mariadbd) {
      super(directory, port);
      this.mariadbd = mariadbd;
      this.log = directory.resolve("server.log");
    }

    static PrivateMariaDb create() throws Exception {
      Path mariadbd = executable("/usr/sbin/mariadbd", "/usr/bin/mariadbd", "/usr/sbin/mysqld");
      requireBinaries(mariadbd, "mariadbd (/usr/sbin/mariadbd)");
      // No mariadb-install-db (about 3 s): mariadbd sets up InnoDB in an empty data directory
      // itself, and the grant tables it would create are skipped (--skip-grant-tables).
      Path directory = Files.createTempDirectory("lease-private-mariadb");
      Files.createDirectory(directory.resolve("data"));
      return new PrivateMariaDb(directory, freePort(), mariadbd);
    }

    @Override
    String url() {
      return "jdbc:mariadb://127.0.0.1:" + port + "/test?user=root";
    }

    @Override
    String adminUrl() {
      return "jdbc:mariadb://127.0.0.1:" + port + "/?user=root&connectTimeout=5000";
    }

    @Override
    void startProcess() throws IOException {
      process =
          new ProcessBuilder(
                  mariadbd.toString(),
                  "--no-defaults",
                  "--datadir=" + directory.resolve("data"),
                  "--port=" + port,
                  "--bind-address=127.0.0.1",
                  "--socket=" + directory.resolve("mariadb.sock"),
                  "--pid-file=" + directory.resolve("mariadb.pid"),
                  "--user=" + System.getProperty("user.name"),
                  "--skip-grant-tables",
                  "--skip-name-resolve",
                  "--skip-log-bin",
                  "--innodb-buffer-pool-size=16M",
                  "--innodb-log-file-size=8M",
                  "--innodb-flush-log-at-trx-commit=2",
                  "--innodb-doublewrite=0",
                  "--log-error=" + log)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    }

    @Override
    void stopProcess() throws InterruptedException {
      Process running = process;
      if (running == null) {
        return;
      }
      process = null;
      running.destroy(); // SIGTERM: a normal shutdown, sessions ended
      if (!running.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        running.destroyForcibly().waitFor();
      }
    }

    @Override
    boolean isProcessAlive() {
      Process running = process;
      return running != null && running.isAlive();
    }

    @Override
    String logTail() {
      return tail(log);
    }

    @Override
    public String toString() {
      return "private MariaDB on port " + port + " in " + directory;
    }
  }
}
