/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

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

/**
 * A PostgreSQL server the harness owns, for the restart fault: a cluster made with {@code initdb}
 * in a temporary directory, on a free port of 127.0.0.1, started and stopped with {@code pg_ctl}
 * (as the user {@code postgres} when run as root), durability traded for speed ({@code fsync=off}).
 * After lease-jdbc's test class {@code PrivateServer}. The shared servers are never restarted:
 * other engineers' tests run on them.
 *
 * <p>Not thread-safe: the driver's thread owns it.
 */
final class PrivatePostgres implements AutoCloseable {

  private static final long TIMEOUT_SECONDS = 60;

  private final Path directory;
  private final Path bin;
  private final int port;
  private boolean running;

  private PrivatePostgres(Path directory, Path bin, int port) {
    this.directory = directory;
    this.bin = bin;
    this.port = port;
  }

  /** Why no private server can be made here (no {@code initdb}), or {@code null}. */
  static @Nullable String unavailable() {
    return bin() == null ? "PostgreSQL's initdb not found in /usr/lib/postgresql/*/bin" : null;
  }

  /** Creates the cluster, starts it and creates the database {@code test}. */
  static PrivatePostgres start() throws IOException, InterruptedException, SQLException {
    Path bin = bin();
    if (bin == null) {
      throw new IllegalStateException("PostgreSQL's initdb not found in /usr/lib/postgresql/*/bin");
    }
    Path directory = Files.createTempDirectory("lease-safety-pg");
    PrivatePostgres server = new PrivatePostgres(directory, bin, freePort());
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
      server.startServer();
      try (Connection connection = DriverManager.getConnection(server.adminUrl());
          Statement statement = connection.createStatement()) {
        statement.execute("CREATE DATABASE test");
      }
      return server;
    } catch (IOException | InterruptedException | SQLException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The URL of its database {@code test}, as user root. */
  String url() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/test?user=root";
  }

  private String adminUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=root&connectTimeout=5";
  }

  /** Starts the server and waits until {@code pg_ctl} says it accepts connections. */
  void startServer() throws IOException, InterruptedException {
    String options =
        String.join(
            " ",
            "-p " + port,
            "-k " + directory,
            "-c listen_addresses=127.0.0.1",
            "-c fsync=off",
            "-c full_page_writes=off",
            "-c shared_buffers=16MB",
            "-c max_connections=60");
    asOwner(
        "pg_ctl",
        "-D",
        data(),
        "-l",
        directory.resolve("server.log").toString(),
        "-w",
        "-t",
        "60",
        "-s",
        "-o",
        options,
        "start");
    running = true;
  }

  /** Stops the server fast (sessions ended at once, as an administrator's restart does). */
  void stopServer() throws IOException, InterruptedException {
    if (running) {
      running = false;
      asOwner("pg_ctl", "-D", data(), "-w", "-t", "60", "-s", "-m", "fast", "stop");
    }
  }

  /** Stops the server and deletes its directory. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      stopServer();
    } finally {
      deleteRecursively(directory);
    }
  }

  private String data() {
    return directory.resolve("data").toString();
  }

  private void asOwner(String binary, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.add(bin.resolve(binary).toString());
    command.addAll(List.of(arguments));
    Path log = directory.resolve("commands.log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish; " + tail(log));
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " failed (" + process.exitValue() + "); " + tail(log));
    }
  }

  /** The newest installed PostgreSQL's {@code bin} directory that has {@code initdb}, or null. */
  private static @Nullable Path bin() {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return null;
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .sorted(Comparator.comparingInt(PrivatePostgres::versionOf).reversed())
          .map(version -> version.resolve("bin"))
          .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  private static int versionOf(Path directory) {
    String name = String.valueOf(directory.getFileName());
    return name.matches("[0-9]{1,4}") ? Integer.parseInt(name) : -1;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "log: "
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "no log (" + e.getMessage() + ")";
    }
  }

  private static void deleteRecursively(Path root) throws IOException {
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

  @Override
  public String toString() {
    return "private PostgreSQL on port " + port + " in " + directory;
  }
}
