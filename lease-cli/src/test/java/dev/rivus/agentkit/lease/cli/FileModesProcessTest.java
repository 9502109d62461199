/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files the tool and the library create are never writable by other users, whatever the umask
 * (under {@code umask 000} they were {@code rw-rw-rw-}: any local user could rewrite a record), and
 * the default state directory is private. The JVM's umask is inherited, so the tool runs under
 * {@code sh -c 'umask 000; exec java ...'}; the command it runs lists the modes while the
 * database's write-ahead log and index exist.
 */
class FileModesProcessTest {

  @TempDir Path temp;

  @BeforeAll
  static void posixOnly() {
    assumeTrue(
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "no POSIX permissions on this file system");
  }

  @Test
  void aDatabaseItsCompanionsAndItsDirectoryAreNotWritableByOthersUnderUmask000() throws Exception {
    Path home = temp.resolve("home");
    Path state = home.resolve(".local/state/lease");

    List<String> out =
        leaseUnderUmask000(
            Map.of("HOME", home.toString()),
            "run",
            "k",
            "--",
            "sh",
            "-c",
            "stat -c '%n %a' " + state + "/*");

    Map<String, String> modes = modes(out);
    assertThat(modes.keySet())
        .as("the files listed while the lease was held: %s", out)
        .contains("leases.db", "leases.db-wal", "leases.db-shm", "leases.db.fence");
    assertThat(modes).allSatisfy((name, mode) -> assertThat(mode).as(name).isEqualTo("644"));
    for (Path dir : List.of(state, state.getParent(), home.resolve(".local"), home)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
          .as("%s", dir)
          .isEqualTo("rwx------");
    }
  }

  @Test
  void aDirectoryOfRecordsAndItsFilesAreNotWritableByOthersUnderUmask000() throws Exception {
    Path records = temp.resolve("records");

    leaseUnderUmask000(Map.of(), "run", "--dir", records.toString(), "k", "--", "true");
    leaseUnderUmask000(Map.of(), "run", "--dir", records.toString(), "k", "--", "true");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(records)))
        .isEqualTo("rwxr-xr-x");
    try (Stream<Path> files = Files.list(records)) {
      List<Path> all = files.toList();
      assertThat(all.stream().map(f -> f.getFileName().toString()))
          .anyMatch(name -> name.endsWith(".json"))
          .anyMatch(name -> name.endsWith(".write.lock"))
          .anyMatch(name -> name.endsWith(".fence.lock"));
      for (Path file : all) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
            .as("%s", file)
            .isEqualTo("rw-r--r--");
      }
    }
  }

  /** {@code name mode} lines, by file name. */
  private static Map<String, String> modes(List<String> lines) {
    Map<String, String> modes = new TreeMap<>();
    for (String line : lines) {
      int space = line.lastIndexOf(' ');
      if (space > 0) {
        modes.put(
            Path.of(line.substring(0, space)).getFileName().toString(), line.substring(space + 1));
      }
    }
    return modes;
  }

  /** Runs {@code lease ARGS...} to its end under umask 000; returns its stdout lines. */
  private List<String> leaseUnderUmask000(Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    List<String> java = new ArrayList<>();
    java.add(ChildJvm.javaBinary());
    java.addAll(
        List.of(
            "-Xmx64m",
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            LeaseCli.class.getName()));
    java.addAll(List.of(args));
    List<String> command = new ArrayList<>(List.of("sh", "-c", "umask 000; exec \"$@\"", "sh"));
    command.addAll(java);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("LEASE_DB");
    builder.environment().remove("XDG_STATE_HOME");
    builder.environment().remove("LEASE_JDBC_URL");
    builder.environment().putAll(environment);
    // Only stdout holds the listing: the JVM's own warnings (Java 24 and later print some for
    // sqlite-jdbc's native library) go to stderr, which is read only to explain a failure.
    Path stderr = Files.createTempFile(temp, "lease", ".stderr");
    builder.redirectError(stderr.toFile());
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(LeaseTool.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue())
        .as("lease %s: %s%s", List.of(args), output, Files.readString(stderr))
        .isZero();
    return output.lines().toList();
  }
}
