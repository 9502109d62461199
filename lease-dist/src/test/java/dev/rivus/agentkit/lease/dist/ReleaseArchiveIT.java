/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The release archive as a user gets it: unpacked into an empty directory and run through a symlink
 * on the PATH, from another directory, on a machine whose PATH has no Maven, with an empty home (no
 * Maven repository) and no JAVA_HOME: only the system's Java runtime.
 */
class ReleaseArchiveIT {

  private static final String VERSION = System.getProperty("release.version", "");
  private static final Path ARCHIVE = Path.of(System.getProperty("release.archive", "missing"));
  private static final List<String> DATABASE_JARS =
      List.of(System.getProperty("release.database.jars", "").split(" "));

  @TempDir static Path root;

  private static Path installation;
  private static Path tmp;
  private static Map<String, String> environment;

  @BeforeAll
  static void unpackAndPutOnThePath() throws Exception {
    assertThat(ARCHIVE).isRegularFile();
    // Spaces in the installation's path and in the home: paths must stay single words.
    Path opt = Files.createDirectories(root.resolve("opt with spaces"));
    Result unpack = run(List.of("tar", "-xzf", ARCHIVE.toString(), "-C", opt.toString()), null);
    assertThat(unpack.code).as(unpack.toString()).isZero();
    installation = opt.resolve("lease-" + VERSION);

    Path bin = Files.createDirectories(root.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("lease"), installation.resolve("bin/lease"));
    Path tools = Files.createDirectories(root.resolve("tools"));
    for (String dir : List.of("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
      linkAllBut(Path.of(dir), tools);
    }
    tmp = Files.createDirectories(root.resolve("tmp"));
    environment = new HashMap<>();
    environment.put("PATH", bin + ":" + tools);
    environment.put("HOME", Files.createDirectories(root.resolve("home of a user")).toString());
    environment.put("TMPDIR", tmp.toString());
    environment.put("LANG", "C.UTF-8");
  }

  /**
   * Links every command of {@code dir} but Maven's into {@code tools}, the first of a name wins.
   */
  private static void linkAllBut(Path dir, Path tools) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> commands = Files.list(dir)) {
      for (Path command : (Iterable<Path>) commands::iterator) {
        String name = command.getFileName().toString();
        if (name.startsWith("mvn")
            || Files.exists(tools.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        Files.createSymbolicLink(tools.resolve(name), command);
      }
    }
  }

  @Test
  void theEnvironmentHasNoMaven() throws Exception {
    Result which = shell("command -v mvn || echo none");
    assertThat(which.stdout.strip()).isEqualTo("none");
  }

  @Test
  void printsItsVersionThroughASymlinkOnThePathFromAnyDirectory() throws Exception {
    Result version = lease(List.of("--version"));
    assertThat(version.code).as(version.toString()).isZero();
    assertThat(version.stdout).startsWith("lease " + VERSION + " (commit ");
  }

  @Test
  void runsACommandUnderALeaseWithoutExtractingTheNativeLibrary() throws Exception {
    Path work = Files.createDirectories(root.resolve("work-run"));
    Result run =
        lease(
            List.of(
                "run",
                "--db",
                "leases.db",
                "job",
                "--",
                "sh",
                "-c",
                "echo \"$LEASE_KEY $LEASE_TOKEN\""),
            work,
            // Where sqlite-jdbc would extract its library, and could not: the run must not need it.
            "-Djava.io.tmpdir=" + root.resolve("no-such-tmp"));
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.stdout).matches("job \\d{16}\\R");
    assertThat(run.stderr).doesNotContain("native library", "libsqlitejdbc");
    assertThat(work.resolve("leases.db")).isRegularFile();

    Result status = lease(List.of("status", "--db", "leases.db", "job", "--json"), work, "");
    assertThat(status.code).as(status.toString()).isZero();
    assertThat(status.stdout).contains("\"key\"").contains("\"job\"");
  }

  @Test
  void shipsTheDatabaseDriversAndThePoolOnTheToolsClassPath() throws Exception {
    assertThat(DATABASE_JARS).hasSize(6);
    for (String jar : DATABASE_JARS) {
      assertThat(installation.resolve("lib").resolve(jar)).isRegularFile();
    }
    try (JarFile cli =
        new JarFile(installation.resolve("lib/lease-cli-" + VERSION + ".jar").toFile())) {
      String classPath = cli.getManifest().getMainAttributes().getValue("Class-Path");
      assertThat(classPath.split(" "))
          .as("java -jar finds them")
          .contains(DATABASE_JARS.toArray(String[]::new));
    }
  }

  @ParameterizedTest
  @EnumSource(SharedServer.class)
  void runsACommandUnderALeaseOnADatabase(SharedServer database) throws Exception {
    database.requireReachable();
    String table = SharedServer.freshTableName("lease_dist_");
    Path work = Files.createDirectories(root.resolve("work-" + database));
    try {
      // The URL from the environment, the table created on first use.
      Result run =
          lease(
              List.of(
                  "run",
                  "--jdbc-table",
                  table,
                  "job",
                  "--",
                  "sh",
                  "-c",
                  "echo \"$LEASE_KEY $LEASE_TOKEN\""),
              work,
              Map.of("LEASE_JDBC_URL", database.url()));
      assertThat(run.code).as(run.toString()).isZero();
      assertThat(run.stdout).matches("job \\d{16}\\R");
      assertThat(run.stderr).isEmpty();

      Result status =
          lease(
              List.of("status", "--jdbc", database.url(), "--jdbc-table", table, "job", "--json"),
              work,
              Map.of());
      assertThat(status.code).as(status.toString()).isZero();
      assertThat(status.stdout).contains("\"state\" : \"released\"");
      try (Stream<Path> files = Files.list(work)) {
        assertThat(files).as("no SQLite database made on the side").isEmpty();
      }
    } finally {
      database.dropLeaseTable(table);
    }
  }

  @Test
  void startsWithItsClassDataSharingArchiveOnceItIsMade() throws Exception {
    Result first = lease(List.of("--version"));
    assertThat(first.code).as(first.toString()).isZero();
    try (Stream<Path> archives = Files.list(root.resolve("home of a user/.cache/lease"))) {
      assertThat(archives.map(p -> p.getFileName().toString()))
          .anyMatch(name -> name.startsWith("lease-" + VERSION) && name.endsWith(".jsa"));
    }
    // -Xshare:on makes the JVM fail rather than start without the archive.
    Result shared = lease(List.of("--version"), root, "-Xshare:on");
    assertThat(shared.code).as(shared.toString()).isZero();
    assertThat(shared.stderr).isEmpty();
  }

  @Test
  void runsOnANewerJavaWithoutAWord() throws Exception {
    Path newer =
        Path.of(System.getProperty("release.newer.java", "/usr/lib/jvm/temurin-25-jdk-amd64"));
    assumeTrue(Files.isExecutable(newer.resolve("bin/java")), "no newer java at " + newer);
    Path work = Files.createDirectories(root.resolve("work-newer"));
    environment.put("JAVA_HOME", newer.toString());
    try {
      Result run = lease(List.of("run", "--db", "leases.db", "job", "--", "true"), work, "");
      assertThat(run.code).as(run.toString()).isZero();
      assertThat(run.stderr).as("warnings of the newer java").isEmpty();
      // Its own class-data sharing archive, made for it and mapped (-Xshare:on fails otherwise).
      Result shared = lease(List.of("--version"), work, "-Xshare:on");
      assertThat(shared.code).as(shared.toString()).isZero();
      assertThat(shared.stderr).isEmpty();
      Result jar =
          run(
              List.of(
                  newer.resolve("bin/java").toString(),
                  "-jar",
                  installation.resolve("lib/lease-cli-" + VERSION + ".jar").toString(),
                  "status",
                  "--db",
                  "leases.db",
                  "job"),
              work);
      assertThat(jar.code).as(jar.toString()).isZero();
      assertThat(jar.stderr).as("warnings of java -jar on the newer java").isEmpty();
    } finally {
      environment.remove("JAVA_HOME");
    }
  }

  @Test
  void theCliJarRunsWithJavaJar() throws Exception {
    Result jar =
        run(
            List.of(
                "java",
                "-jar",
                installation.resolve("lib/lease-cli-" + VERSION + ".jar").toString(),
                "--version"),
            root);
    assertThat(jar.code).as(jar.toString()).isZero();
    assertThat(jar.stdout).startsWith("lease " + VERSION);
  }

  @Test
  void shipsManPagesAndCompletion() throws Exception {
    Path man = installation.resolve("share/man/man1");
    for (String page :
        List.of(
            "lease", "lease-run", "lease-status", "lease-list", "lease-release", "lease-prune")) {
      assertThat(Files.readString(man.resolve(page + ".1")))
          .contains(".TH \"" + page.toUpperCase(Locale.ROOT).replace("-", "\\-") + "\" \"1\"");
    }
    assertThat(Files.readString(man.resolve("lease-run.1"))).contains("KEY \\-\\- COMMAND");
    Path completion = installation.resolve("share/bash-completion/completions/lease");
    Result complete =
        run(
            List.of("bash", "-c", "source \"$0\" && complete -p lease", completion.toString()),
            root);
    assertThat(complete.code).as(complete.toString()).isZero();
    assertThat(complete.stdout).contains("lease");
  }

  @Test
  void manFindsThePagesAfterTheDocumentedSymlinks() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/man")), "no man(1) on this machine");
    // docs/cli.md: the command linked into a bin directory on the PATH, the pages into the
    // share/man/man1 beside it, which man(1) searches for every directory on the PATH.
    Path pages = Files.createDirectories(root.resolve("share/man/man1"));
    try (Stream<Path> shipped = Files.list(installation.resolve("share/man/man1"))) {
      for (Path page : (Iterable<Path>) shipped::iterator) {
        Files.createSymbolicLink(pages.resolve(page.getFileName()), page);
      }
    }
    Result where = shell("man -w lease-run");
    assertThat(where.code).as(where.toString()).isZero();
    // man -w names the page by its real path: the installation's
    assertThat(Path.of(where.stdout.strip()).toRealPath())
        .isEqualTo(installation.resolve("share/man/man1/lease-run.1").toRealPath());
  }

  private static Result lease(List<String> args) throws Exception {
    return lease(args, root, "");
  }

  private static Result lease(List<String> args, Path directory, String javaOptions)
      throws Exception {
    return run(command(args), directory, javaOptions, Map.of());
  }

  private static Result lease(List<String> args, Path directory, Map<String, String> variables)
      throws Exception {
    return run(command(args), directory, "", variables);
  }

  private static List<String> command(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add("lease");
    command.addAll(args);
    return command;
  }

  private static Result shell(String script) throws Exception {
    return run(List.of("sh", "-c", script), root);
  }

  private static Result run(List<String> command, Path directory) throws Exception {
    return run(command, directory, "");
  }

  private static Result run(List<String> command, Path directory, String javaOptions)
      throws Exception {
    return run(command, directory, javaOptions, Map.of());
  }

  private static Result run(
      List<String> command, Path directory, String javaOptions, Map<String, String> variables)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command));
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    Map<String, String> env = builder.environment();
    if (environment != null) {
      env.clear();
      env.putAll(environment);
      // The first word is looked up on this PATH too, not on the test JVM's.
      builder.command().set(0, resolve(command.get(0)));
    }
    if (!javaOptions.isEmpty()) {
      env.put("LEASE_JAVA_OPTS", javaOptions);
    }
    env.putAll(variables);
    Path out = Files.createTempFile(root, "out", ".txt");
    Path err = Files.createTempFile(root, "err", ".txt");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    process.getOutputStream().close();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not end within 120 s");
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static String resolve(String name) {
    if (name.contains("/")) {
      return name;
    }
    for (String dir : environment.get("PATH").split(":")) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return name;
  }

  private record Result(int code, String stdout, String stderr) {
    @Override
    public String toString() {
      return "exit " + code + "\nstdout: " + stdout + "\nstderr: " + stderr;
    }
  }
}
