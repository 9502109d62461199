/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/** PostgreSQL through {@code initdb} and {@code pg_ctl}. */
final class PrivatePostgres extends PrivateServer {
  private final Path bin;

  private PrivatePostgres(Path directory, int port, Path bin) {
    super(directory, port);
    this.bin = bin;
  }

  static PrivatePostgres create() throws IOException, InterruptedException {
    Path bin = bin();
    if (bin == null) {
      throw new IllegalStateException("PostgreSQL's initdb not found");
    }
    Path directory = Files.createTempDirectory("lease-private-pg");
    PrivatePostgres server = new PrivatePostgres(directory, freePort(), bin);
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
    } catch (IOException | InterruptedException | RuntimeException e) {
      deleteRecursively(directory);
      throw e;
    }
    return server;
  }

  /** The newest installed PostgreSQL's {@code bin} directory that has {@code initdb}, or null. */
  static @Nullable Path bin() {
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
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  private static int versionOf(Path directory) {
    String name = String.valueOf(directory.getFileName());
    return name.matches("[0-9]{1,4}") ? Integer.parseInt(name) : -1;
  }

  private String data() {
    return directory().resolve("data").toString();
  }

  private void asOwner(String binary, String... arguments)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.add(bin.resolve(binary).toString());
    command.addAll(List.of(arguments));
    run(directory().resolve("commands.log"), command);
  }

  @Override
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + port() + "/test?user=root";
  }

  @Override
  public Kind kind() {
    return Kind.POSTGRES;
  }

  @Override
  String adminUrl() {
    // The socket timeout bounds the login too, which the connect timeout does not.
    return "jdbc:postgresql://127.0.0.1:"
        + port()
        + "/postgres?user=root&connectTimeout=5&socketTimeout=10";
  }

  @Override
  void startProcess() throws IOException, InterruptedException {
    String options =
        String.join(
            " ",
            "-p " + port(),
            "-k " + directory(),
            "-c listen_addresses=127.0.0.1",
            "-c fsync=off",
            "-c full_page_writes=off",
            "-c shared_buffers=16MB",
            // The safety harness: 4 connections for each of its worker JVMs, their successors
            // after a kill -9, lease run's pools, and the driver's own.
            "-c max_connections=100");
    asOwner(
        "pg_ctl",
        "-D",
        data(),
        "-l",
        log().toString(),
        "-w",
        "-t",
        Long.toString(TIMEOUT_SECONDS),
        "-s",
        "-o",
        options,
        "start");
  }

  @Override
  void stopProcess() throws IOException, InterruptedException {
    // Fast: sessions are ended at once, as in a restart by an administrator.
    asOwner(
        "pg_ctl",
        "-D",
        data(),
        "-w",
        "-t",
        Long.toString(TIMEOUT_SECONDS),
        "-s",
        "-m",
        "fast",
        "stop");
  }

  @Override
  void killProcess() {
    // The postmaster's pid is the first line of postmaster.pid; its backends exit when it dies.
    try {
      List<String> lines =
          Files.readAllLines(Path.of(data(), "postmaster.pid"), StandardCharsets.UTF_8);
      if (!lines.isEmpty() && lines.get(0).trim().matches("[0-9]+")) {
        ProcessHandle.of(Long.parseLong(lines.get(0).trim()))
            .ifPresent(ProcessHandle::destroyForcibly);
      }
    } catch (IOException | RuntimeException notRunning) {
      // no pid file: nothing was started, or it has stopped
    }
  }
}
