/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The real {@code lease} tool as a process: a child JVM (the testkit's {@link ChildJvm}) on this
 * test's class path running {@link LeaseCli}, with its output read line by line so that tests
 * synchronise on what it says.
 */
final class LeaseTool implements AutoCloseable {

  static final Duration PATIENCE = Duration.ofSeconds(60);

  private final ChildJvm child;

  private LeaseTool(ChildJvm child) {
    this.child = child;
  }

  /** Starts {@code lease ARGS...} with this JVM's environment. */
  static LeaseTool start(String... args) {
    return start(Map.of(), args);
  }

  /** Starts {@code lease ARGS...} with extra environment variables (a null value removes one). */
  static LeaseTool start(Map<String, String> environment, String... args) {
    return start(List.of(), environment, args);
  }

  /** Starts {@code lease ARGS...} with more JVM options and extra environment variables. */
  static LeaseTool start(List<String> jvmOptions, Map<String, String> environment, String... args) {
    Map<String, @Nullable String> env = new HashMap<>();
    env.put("LEASE_DEBUG", null);
    // A store named by the environment of the test run would change what the tests open.
    env.put("LEASE_JDBC_URL", null);
    env.put("LEASE_JDBC_USER", null);
    env.put("LEASE_JDBC_PASSWORD", null);
    env.putAll(environment);
    return new LeaseTool(
        ChildJvm.builder(LeaseCli.class.getName())
            // as bin/lease: Java 24 and later would warn about sqlite-jdbc's native library
            .jvmOptions("-Xmx64m", "--enable-native-access=ALL-UNNAMED")
            .jvmOptions(jvmOptions.toArray(String[]::new))
            .environment(env)
            .args(List.of(args))
            .start());
  }

  /** Runs {@code lease ARGS...} to its end. */
  static LeaseTool run(String... args) {
    return run(Map.of(), args);
  }

  /** Runs {@code lease ARGS...} to its end, with extra environment variables. */
  static LeaseTool run(Map<String, String> environment, String... args) {
    LeaseTool tool = start(environment, args);
    tool.closeStdin();
    tool.awaitExit();
    return tool;
  }

  long pid() {
    return child.pid();
  }

  ProcessHandle handle() {
    return child.handle();
  }

  /** Waits for a line on stdout that matches {@code regex} and returns its first group. */
  String awaitStdout(String regex) {
    Pattern pattern = Pattern.compile(regex);
    return firstGroup(
        pattern,
        awaitQuietly(() -> child.awaitOutput(describe(pattern), matches(pattern), PATIENCE)));
  }

  String awaitStderr(String regex) {
    Pattern pattern = Pattern.compile(regex);
    return firstGroup(
        pattern,
        awaitQuietly(() -> child.awaitError(describe(pattern), matches(pattern), PATIENCE)));
  }

  void writeLine(String line) {
    child.send(line);
  }

  void closeStdin() {
    child.closeStdin();
  }

  int awaitExit() {
    return awaitQuietly(() -> child.awaitExit(PATIENCE));
  }

  boolean isAlive() {
    return child.isAlive();
  }

  List<String> stdoutLines() {
    return child.stdoutLines();
  }

  List<String> stderrLines() {
    return child.stderrLines();
  }

  String stdout() {
    return String.join("\n", child.stdoutLines());
  }

  String stderr() {
    return String.join("\n", child.stderrLines());
  }

  void signal(String name) {
    signal(name, child.pid());
  }

  static void signal(String name, long pid) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
      if (kill.waitFor() != 0) {
        throw new AssertionError("kill -" + name + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** A process runs if /proc shows it in any state but zombie (a zombie has ended, unreaped). */
  static boolean isRunning(long pid) {
    Optional<String> stat;
    try {
      stat = Optional.of(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
    } catch (IOException gone) {
      stat = Optional.empty();
    }
    return stat.map(
            text -> {
              String afterName = text.substring(text.lastIndexOf(')') + 1).trim();
              return !afterName.startsWith("Z") && !afterName.startsWith("X");
            })
        .orElse(false);
  }

  static void awaitGone(long pid, Duration within) {
    await("process " + pid + " to end").atMost(within).until(() -> !isRunning(pid));
  }

  /** Kills the tool and every process it started. */
  @Override
  public void close() {
    child.close();
  }

  @Override
  public String toString() {
    return child.diagnostics();
  }

  private static String describe(Pattern pattern) {
    return "a line matching /" + pattern + "/";
  }

  private static Predicate<String> matches(Pattern pattern) {
    return line -> pattern.matcher(line).find();
  }

  private static String firstGroup(Pattern pattern, String line) {
    Matcher matcher = pattern.matcher(line);
    if (!matcher.find()) {
      throw new IllegalStateException(line);
    }
    return matcher.groupCount() > 0 ? matcher.group(1) : matcher.group();
  }

  /** Waits as tests do: an interrupt fails the test, with the flag kept. */
  private static <T> T awaitQuietly(Waiting<T> waiting) {
    try {
      return waiting.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @FunctionalInterface
  private interface Waiting<T> {
    T await() throws InterruptedException;
  }
}
