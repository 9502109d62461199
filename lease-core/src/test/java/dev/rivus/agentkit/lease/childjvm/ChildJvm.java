package dev.rivus.agentkit.lease.childjvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Another JVM running a main class from the test class path, for cross-process tests. Its output
 * lines are collected so a test can wait for one; closing it kills the process with {@code kill
 * -9}. A child's {@code main} should exit when its standard input ends, so no child outlives a
 * crashed test.
 */
public final class ChildJvm implements AutoCloseable {

  private final String name;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> transcript = new ArrayList<>();
  private final Writer input;
  private final Thread reader;

  private ChildJvm(String name, Process process) {
    this.name = name;
    this.process = process;
    this.input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.reader = new Thread(this::collectOutput, "output of " + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code main} in a new JVM with this JVM's java binary and class path. */
  public static ChildJvm start(Class<?> main, String... args) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    // A small, quick JVM: the children only lock files.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-Xmx64m");
    command.add(main.getName());
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      return new ChildJvm(main.getSimpleName() + " pid " + process.pid(), process);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /** Waits for the next output line that starts with {@code prefix}; fails the test on timeout. */
  public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = Math.min(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(100));
      String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
      if (line == null && !process.isAlive()) {
        reader.join(TimeUnit.SECONDS.toMillis(5)); // the rest of its output, then no more
        line = lines.poll();
        if (line == null) {
          throw new AssertionError(
              name
                  + " exited with "
                  + process.exitValue()
                  + " before printing '"
                  + prefix
                  + "'; output: "
                  + transcript());
        }
      }
      if (line == null && System.nanoTime() - deadline >= 0) {
        throw new AssertionError(
            name
                + " printed no line starting with '"
                + prefix
                + "' within "
                + timeout
                + "; output so far: "
                + transcript());
      }
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /** Sends one line to the child's standard input. */
  public void send(String line) {
    try {
      input.write(line + "\n");
      input.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + name + "; output: " + transcript(), e);
    }
  }

  /** Waits for the child to exit on its own; fails the test on timeout. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          name + " did not exit within " + timeout + "; output: " + transcript());
    }
    return process.exitValue();
  }

  /** Kills the child as {@code kill -9} does and waits until it is gone. */
  public void kill() throws InterruptedException {
    // Through the handle: Process.destroyForcibly() also closes our end of the child's output,
    // and the lines it wrote just before dying would be lost to the reader.
    process.toHandle().destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError(name + " survived kill -9 for 30 s");
    }
  }

  public synchronized List<String> transcript() {
    return List.copyOf(transcript);
  }

  /** Kills the child; an interrupt of the waiting thread is kept for the caller to see. */
  @Override
  public void close() {
    try {
      kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private void collectOutput() {
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        synchronized (this) {
          transcript.add(line);
        }
        lines.add(line);
      }
    } catch (IOException e) {
      // The child is gone; its output ends here.
    }
  }
}
