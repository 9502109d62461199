package dev.rivus.agentkit.lease.cli;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real {@code lease} tool as a process: a child JVM on this test's class path running {@link
 * LeaseCli}, with its output read line by line so that tests synchronise on what it says.
 */
final class LeaseTool implements AutoCloseable {

  static final Duration PATIENCE = Duration.ofSeconds(60);

  private static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx64m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Xshare:auto",
          // as bin/lease: Java 24 and later would warn about sqlite-jdbc's native library
          "--enable-native-access=ALL-UNNAMED");

  private final Process process;
  private final Transcript stdout = new Transcript();
  private final Transcript stderr = new Transcript();

  private LeaseTool(Process process) {
    this.process = process;
    read(process.getInputStream(), stdout, "stdout-" + process.pid());
    read(process.getErrorStream(), stderr, "stderr-" + process.pid());
  }

  /** Starts {@code lease ARGS...} with this JVM's environment. */
  static LeaseTool start(String... args) {
    return start(Map.of(), args);
  }

  /** Starts {@code lease ARGS...} with extra environment variables (a null value removes one). */
  static LeaseTool start(Map<String, String> environment, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LeaseCli.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.remove("LEASE_DEBUG");
    new HashMap<>(environment)
        .forEach(
            (name, value) -> {
              if (value == null) {
                env.remove(name);
              } else {
                env.put(name, value);
              }
            });
    try {
      return new LeaseTool(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code lease ARGS...} to its end. */
  static LeaseTool run(String... args) {
    LeaseTool tool = start(args);
    tool.closeStdin();
    tool.awaitExit();
    return tool;
  }

  long pid() {
    return process.pid();
  }

  ProcessHandle handle() {
    return process.toHandle();
  }

  /** Waits for a line on stdout that matches {@code regex} and returns its first group. */
  String awaitStdout(String regex) {
    return stdout.await(Pattern.compile(regex), this);
  }

  String awaitStderr(String regex) {
    return stderr.await(Pattern.compile(regex), this);
  }

  void writeLine(String line) {
    try {
      OutputStream in = process.getOutputStream();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void closeStdin() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int awaitExit() {
    try {
      if (!process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("lease did not exit within " + PATIENCE + ": " + this);
      }
      stdout.awaitEnd();
      stderr.awaitEnd();
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  List<String> stdoutLines() {
    return stdout.lines();
  }

  List<String> stderrLines() {
    return stderr.lines();
  }

  String stdout() {
    return String.join("\n", stdout.lines());
  }

  String stderr() {
    return String.join("\n", stderr.lines());
  }

  void signal(String name) {
    signal(name, process.pid());
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

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  @Override
  public String toString() {
    return "lease[" + process.pid() + "]\n--- stdout\n" + stdout() + "\n--- stderr\n" + stderr();
  }

  private static void read(InputStream in, Transcript sink, String name) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  sink.add(line);
                }
              } catch (IOException closed) {
                // the process was destroyed
              } finally {
                sink.end();
              }
            },
            name);
    reader.setDaemon(true);
    reader.start();
  }

  /** Lines read so far from one stream; waiting on it is waiting for what the process says. */
  private static final class Transcript {
    private final List<String> lines = new ArrayList<>();
    private boolean ended;

    synchronized void add(String line) {
      lines.add(line);
      notifyAll();
    }

    synchronized void end() {
      ended = true;
      notifyAll();
    }

    synchronized List<String> lines() {
      return List.copyOf(lines);
    }

    synchronized void awaitEnd() throws InterruptedException {
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (!ended) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("output did not end within " + PATIENCE);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    synchronized String await(Pattern pattern, LeaseTool tool) {
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      int seen = 0;
      try {
        while (true) {
          for (; seen < lines.size(); seen++) {
            Matcher matcher = pattern.matcher(lines.get(seen));
            if (matcher.find()) {
              return matcher.groupCount() > 0 ? matcher.group(1) : matcher.group();
            }
          }
          long left = deadline - System.nanoTime();
          if (ended || left <= 0) {
            break;
          }
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new AssertionError("no line matching /" + pattern + "/ from " + tool);
    }
  }
}
