/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A database server owned by its caller, which may stop it and start it again (a restart, as an
 * administrator's): a PostgreSQL cluster ({@code initdb}, {@code pg_ctl} from {@code
 * /usr/lib/postgresql/*}{@code /bin}, run as the user {@code postgres} when the JVM runs as root,
 * since PostgreSQL refuses root) or a MariaDB data directory ({@code mariadbd} as a child of this
 * JVM, {@code --skip-grant-tables}), in a temporary directory, on a free port of 127.0.0.1, with a
 * database {@code test} that user {@code root} reaches without a password, and durability traded
 * for speed ({@code fsync=off}; InnoDB flushing once a second). lease-jdbc's restart tests and the
 * safety harness's restart phases use it; shared servers, which other tests use, must never be
 * restarted.
 *
 * <p>It talks to the server through {@link DriverManager}: the caller's class path must hold the
 * JDBC driver of its kind. A shutdown hook stops the server if the JVM exits before {@link
 * #close()}. Not thread-safe: one thread drives it.
 */
public abstract class PrivateServer implements AutoCloseable {

  /** The kinds of server, with what each needs from the machine. */
  public enum Kind {
    /** PostgreSQL: needs {@code initdb} and {@code pg_ctl} in {@code /usr/lib/postgresql/N/bin}. */
    POSTGRES("PostgreSQL"),
    /** MariaDB: needs {@code mariadbd} ({@code /usr/sbin/mariadbd}). */
    MARIADB("MariaDB");

    private final String product;

    Kind(String product) {
      this.product = product;
    }

    /**
     * The product's name, for messages.
     *
     * @return {@code PostgreSQL} or {@code MariaDB}
     */
    public String product() {
      return product;
    }
  }

  static final long TIMEOUT_SECONDS = 60;

  private final Path directory;
  private final int port;
  private final Thread cleanup = new Thread(this::stopQuietly, "private-server-cleanup");
  private boolean running;

  PrivateServer(Path directory, int port) {
    this.directory = directory;
    this.port = port;
  }

  /**
   * Why no private server of {@code kind} can be made on this machine (its binaries are missing),
   * or {@code null} if one can.
   *
   * @param kind the kind of server
   * @return the reason, or {@code null}
   */
  public static @Nullable String unavailable(Kind kind) {
    if (kind == Kind.POSTGRES) {
      return PrivatePostgres.bin() == null
          ? "PostgreSQL's initdb not found in /usr/lib/postgresql/*/bin"
          : null;
    }
    return PrivateMariaDb.mariadbd() == null ? "mariadbd not found in /usr/sbin or /usr/bin" : null;
  }

  /**
   * Creates a server of {@code kind}, starts it, and creates its database {@code test}.
   *
   * @param kind the kind of server
   * @return the running server; {@link #close()} stops it and deletes its directory
   * @throws IllegalStateException if its binaries are missing ({@link #unavailable})
   * @throws IOException if it could not be made or started, or its database not created (the
   *     message holds its log's tail or the driver's error)
   * @throws InterruptedException if interrupted while it starts
   */
  public static PrivateServer start(Kind kind) throws IOException, InterruptedException {
    String missing = unavailable(kind);
    if (missing != null) {
      throw new IllegalStateException("no private " + kind.product() + " server: " + missing);
    }
    PrivateServer server =
        kind == Kind.POSTGRES ? PrivatePostgres.create() : PrivateMariaDb.create();
    Runtime.getRuntime().addShutdownHook(server.cleanup); // a JVM that exits before close()
    try {
      server.start();
      try (Connection connection = DriverManager.getConnection(server.adminUrl());
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE DATABASE test");
      } catch (SQLException e) {
        throw new IOException(server + ": cannot create the database test: " + e.getMessage(), e);
      }
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      try {
        server.close();
      } catch (IOException | InterruptedException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return server;
  }

  /**
   * As {@link #start(Kind)}, for a JUnit test: without the binaries the test is skipped, with the
   * reason, or fails when the environment says {@code CI=true} ({@link
   * TestEnvironment#skipOrFail}), so that a missing server is never mistaken for a pass.
   *
   * @param kind the kind of server
   * @return the running server
   * @throws IOException if it could not be made or started, or its database not created
   * @throws InterruptedException if interrupted while it starts
   */
  public static PrivateServer startOrSkip(Kind kind) throws IOException, InterruptedException {
    String missing = unavailable(kind);
    if (missing != null) {
      TestEnvironment.skipOrFail(
          missing + ": this test needs a private server it can restart",
          "the binaries are required");
    }
    return start(kind);
  }

  /**
   * The URL of its database {@code test}, as user root without a password.
   *
   * @return the JDBC URL
   */
  public abstract String url();

  /**
   * The kind of this server.
   *
   * @return the kind
   */
  public abstract Kind kind();

  /**
   * The port it listens on, on 127.0.0.1; the same across restarts.
   *
   * @return the port
   */
  public final int port() {
    return port;
  }

  /**
   * The temporary directory of its data, logs and socket, deleted by {@link #close()}.
   *
   * @return the directory
   */
  public final Path directory() {
    return directory;
  }

  /** A URL for administration, valid before the database {@code test} exists. */
  abstract String adminUrl();

  abstract void startProcess() throws IOException, InterruptedException;

  abstract void stopProcess() throws IOException, InterruptedException;

  /** Kills the server's process at once (SIGKILL), if it runs: after a stop that failed. */
  abstract void killProcess();

  /** Whether the server's process may still be starting or running. */
  boolean isProcessAlive() {
    return true;
  }

  final Path log() {
    return directory.resolve("server.log");
  }

  /**
   * Starts the server on its port and data directory (again, after {@link #stop()}), and waits
   * until it answers a connection.
   *
   * @throws IOException if it exited while starting, or did not answer within 60 s (the message
   *     holds its log's tail)
   * @throws InterruptedException if interrupted meanwhile
   */
  public final void start() throws IOException, InterruptedException {
    // Before the start: a start that fails or is interrupted half-way may leave a server starting,
    // which close() must stop.
    running = true;
    startProcess();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
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
        throw new IOException(this + " exited while starting; " + tail(log()), last);
      }
      TimeUnit.MILLISECONDS.sleep(50); // polling a server that is starting: nothing to wait on
    }
    throw new IOException(
        this + " did not answer within " + TIMEOUT_SECONDS + " s; " + tail(log()), last);
  }

  /**
   * Stops the server, as an administrator's restart does: every session ends (PostgreSQL's fast
   * shutdown, MariaDB's normal one); returns once it has stopped. Does nothing if it is stopped.
   *
   * @throws IOException if it could not be stopped
   * @throws InterruptedException if interrupted meanwhile
   */
  public final void stop() throws IOException, InterruptedException {
    if (!running) {
      return;
    }
    try {
      stopProcess();
    } catch (IOException | InterruptedException | RuntimeException failed) {
      killProcess(); // a stop that failed or was cut short must not leave the server running
      throw failed;
    } finally {
      running = false;
    }
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (IOException | InterruptedException | RuntimeException ignored) {
      // best effort: the JVM is exiting
    }
  }

  /**
   * Stops the server and deletes its directory.
   *
   * @throws IOException if it could not be stopped or its directory not deleted
   * @throws InterruptedException if interrupted while it stops
   */
  @Override
  public void close() throws IOException, InterruptedException {
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

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Runs a command to its end, its output appended to {@code log}; fails with the log's tail. */
  static void run(Path log, List<String> command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    try {
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish; " + tail(log));
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      throw e;
    }
    if (process.exitValue() != 0) {
      throw new IOException(
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

  @Override
  public String toString() {
    return "private " + kind().product() + " on port " + port + " in " + directory;
  }
}
