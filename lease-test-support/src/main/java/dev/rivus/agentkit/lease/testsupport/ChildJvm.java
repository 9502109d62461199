/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

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
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A child JVM for cross-process tests: started with the current {@code java} binary and class path,
 * read line by line from its standard output, signalled like an operator would (stop, continue,
 * kill), and always destroyed on {@link #close()}. A caller that reads the child's streams itself
 * takes its command from {@link Builder#processBuilder()}, and one that builds its own command line
 * takes the binary from {@link #javaBinary()}.
 *
 * <p>Standard output is read by a daemon thread into a transcript; {@link #awaitLine} waits for the
 * next line that matches, so a test synchronises on what the child says, never on time. Standard
 * error is kept for failure messages. The child's standard input stays open until {@link #close()},
 * so a child can treat its end as "the parent is gone".
 *
 * <p>Thread-safe. Signals other than SIGKILL use the {@code kill} command, so {@link #suspend()}
 * and {@link #resume()} need a Unix-like system.
 */
public final class ChildJvm implements AutoCloseable {

  private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

  /** Options that make a short-lived child start fast and stay small on a shared machine. */
  private static final List<String> JVM_OPTIONS =
      List.of("-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

  private final String name;
  private final Process process;
  private final OutputStream stdin;
  private final Transcript stdout = new Transcript();
  private final Transcript stderr = new Transcript();
  private int cursor; // guarded by stdout

  private ChildJvm(String name, Process process) {
    this.name = name;
    this.process = process;
    this.stdin = process.getOutputStream();
    startReader(name + "-stdout", process.getInputStream(), stdout);
    startReader(name + "-stderr", process.getErrorStream(), stderr);
  }

  /**
   * Starts {@code mainClass} in a new JVM with the current {@code java} binary and class path.
   *
   * @param mainClass the class whose {@code main} the child runs
   * @param args the arguments of {@code main}
   * @return the running child; close it to destroy it
   * @throws UncheckedIOException if the process cannot be started
   */
  public static ChildJvm start(Class<?> mainClass, List<String> args) {
    return start(mainClass.getName(), args);
  }

  /**
   * Starts {@code mainClass} in a new JVM with the current {@code java} binary and class path.
   *
   * @param mainClass the class whose {@code main} the child runs
   * @param args the arguments of {@code main}
   * @return the running child; close it to destroy it
   * @throws UncheckedIOException if the process cannot be started
   */
  public static ChildJvm start(Class<?> mainClass, String... args) {
    return start(mainClass.getName(), List.of(args));
  }

  /**
   * Starts the class named {@code mainClass} in a new JVM with the current {@code java} binary and
   * class path.
   *
   * @param mainClass the binary name of the class whose {@code main} the child runs
   * @param args the arguments of {@code main}
   * @return the running child; close it to destroy it
   * @throws UncheckedIOException if the process cannot be started
   */
  public static ChildJvm start(String mainClass, List<String> args) {
    return builder(mainClass).args(args).start();
  }

  /**
   * Starts describing a child JVM that runs the class named {@code mainClass} with the current
   * {@code java} binary and class path, for a child that needs more JVM options or another
   * environment.
   *
   * @param mainClass the binary name of the class whose {@code main} the child runs
   * @return a builder
   */
  public static Builder builder(String mainClass) {
    return new Builder(mainClass);
  }

  /** What a child JVM runs with. Not thread-safe; a builder is for one thread. */
  public static final class Builder {
    private final String mainClass;
    private final List<String> jvmOptions = new ArrayList<>(JVM_OPTIONS);
    private final List<String> args = new ArrayList<>();
    private final Map<String, @Nullable String> environment = new HashMap<>();

    private Builder(String mainClass) {
      this.mainClass = mainClass;
    }

    /**
     * Adds JVM options, after the defaults that keep a child small and quick to start ({@code
     * -Xmx96m}, the serial collector, C1 only); a later option overrides a default, as {@code
     * -Xmx64m} does.
     *
     * @param options the options
     * @return this builder
     */
    public Builder jvmOptions(String... options) {
      jvmOptions.addAll(List.of(options));
      return this;
    }

    /**
     * Adds arguments of {@code main}.
     *
     * @param arguments the arguments
     * @return this builder
     */
    public Builder args(List<String> arguments) {
      args.addAll(arguments);
      return this;
    }

    /**
     * Sets environment variables of the child, over this process's; a null value removes one.
     *
     * @param variables the variables
     * @return this builder
     */
    public Builder environment(Map<String, @Nullable String> variables) {
      environment.putAll(variables);
      return this;
    }

    /**
     * Returns a process builder for the child, for a caller that starts the process and reads its
     * streams itself: the command ({@link #javaBinary()}, the JVM options, {@code -cp} with this
     * JVM's class path, the main class, its arguments) and the environment that {@link #start()}
     * would start it with. Each call returns a new builder, which the caller may change further.
     *
     * @return the process builder
     */
    public ProcessBuilder processBuilder() {
      List<String> command = new ArrayList<>();
      command.add(javaBinary());
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(mainClass);
      command.addAll(args);
      ProcessBuilder builder = new ProcessBuilder(command);
      Map<String, String> env = builder.environment();
      environment.forEach(
          (name, value) -> {
            if (value == null) {
              env.remove(name);
            } else {
              env.put(name, value);
            }
          });
      return builder;
    }

    /**
     * Starts the child.
     *
     * @return the running child; close it to destroy it
     * @throws UncheckedIOException if the process cannot be started
     */
    public ChildJvm start() {
      ProcessBuilder builder = processBuilder();
      try {
        Process process = builder.start();
        String simpleName = mainClass.substring(mainClass.lastIndexOf('.') + 1);
        return new ChildJvm(simpleName + "[" + process.pid() + "]", process);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start a child JVM: " + builder.command(), e);
      }
    }
  }

  /**
   * Returns the {@code java} binary of this JVM, which child JVMs run: this process's own command
   * when the system reports it and it is executable, else {@code bin/java} under {@code java.home}.
   *
   * @return the binary's path
   */
  public static String javaBinary() {
    Optional<String> current = ProcessHandle.current().info().command();
    if (current.isPresent() && Files.isExecutable(Path.of(current.get()))) {
      return current.get();
    }
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static void startReader(String threadName, InputStream in, Transcript sink) {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  sink.add(line);
                }
              } catch (IOException streamClosed) {
                // the process was destroyed: the transcript ends here
              } finally {
                sink.end();
              }
            },
            threadName);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Returns the child's process id.
   *
   * @return the pid
   */
  public long pid() {
    return process.pid();
  }

  /**
   * Waits for the next line of standard output, after those already returned by this method, that
   * matches. Lines skipped on the way stay in {@link #stdoutLines()}.
   *
   * @param description what the line is, for the failure message
   * @param matches the test a line must pass
   * @param timeout the longest wait
   * @return the matching line
   * @throws AssertionError if no such line arrives in time, or the child's output ends first; the
   *     message holds the child's output and error stream
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public String awaitLine(String description, Predicate<String> matches, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (stdout) {
      while (true) {
        for (; cursor < stdout.lines.size(); cursor++) {
          String line = stdout.lines.get(cursor);
          if (matches.test(line)) {
            cursor++;
            return line;
          }
        }
        long left = deadline - System.nanoTime();
        if (stdout.ended || left <= 0) {
          throw new AssertionError(
              (stdout.ended ? "output ended" : "timed out after " + timeout)
                  + " while waiting for "
                  + description
                  + "\n"
                  + diagnostics());
        }
        TimeUnit.NANOSECONDS.timedWait(stdout, left);
      }
    }
  }

  /**
   * Waits for the next line of standard output that starts with {@code prefix}; see {@link
   * #awaitLine(String, Predicate, Duration)}.
   *
   * @param prefix the start of the line, for example {@code "ACQUIRED "}
   * @param timeout the longest wait
   * @return the matching line
   * @throws AssertionError if no such line arrives in time, or the output ends first
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
    return awaitLine("a line starting with '" + prefix + "'", l -> l.startsWith(prefix), timeout);
  }

  /**
   * Waits until standard output has a line that matches, among all lines so far (unlike {@link
   * #awaitLine}, which moves on from the last line it returned).
   *
   * @param description what the line is, for the failure message
   * @param matches the test a line must pass
   * @param timeout the longest wait
   * @return the first matching line
   * @throws AssertionError if no such line arrives in time, or the output ends first
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public String awaitOutput(String description, Predicate<String> matches, Duration timeout)
      throws InterruptedException {
    return stdout.awaitAny(description, matches, timeout, this);
  }

  /**
   * Waits until standard error has a line that matches, among all lines so far.
   *
   * @param description what the line is, for the failure message
   * @param matches the test a line must pass
   * @param timeout the longest wait
   * @return the first matching line
   * @throws AssertionError if no such line arrives in time, or the stream ends first
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public String awaitError(String description, Predicate<String> matches, Duration timeout)
      throws InterruptedException {
    return stderr.awaitAny(description, matches, timeout, this);
  }

  /**
   * Returns every line the child wrote to standard error so far.
   *
   * @return a copy of the transcript
   */
  public List<String> stderrLines() {
    return stderr.snapshot();
  }

  /**
   * Closes the child's standard input, which it reads as end of input.
   *
   * @throws UncheckedIOException if it cannot be closed
   */
  public void closeStdin() {
    try {
      stdin.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the input of " + name, e);
    }
  }

  /**
   * Returns the child's process handle, for its descendants and state.
   *
   * @return the handle
   */
  public ProcessHandle handle() {
    return process.toHandle();
  }

  /**
   * Sends a signal with the {@code kill} command.
   *
   * @param signal the signal's name without {@code SIG}, for example {@code TERM}
   * @throws IllegalStateException if the signal cannot be sent
   * @throws InterruptedException if interrupted while waiting for the {@code kill} command
   */
  public void signal(String signal) throws InterruptedException {
    sendSignal(signal);
  }

  /**
   * Returns every line the child wrote to standard output so far.
   *
   * @return a copy of the transcript
   */
  public List<String> stdoutLines() {
    return stdout.snapshot();
  }

  /**
   * Sends one line to the child's standard input.
   *
   * @param line the line, without a line terminator
   * @throws UncheckedIOException if the child's input is closed
   */
  public void send(String line) {
    try {
      synchronized (stdin) {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to " + name, e);
    }
  }

  /**
   * Stops the child with SIGSTOP, as a debugger, a swapped-out VM or a long GC pause would, and
   * waits until the system reports it stopped (where {@code /proc} tells).
   *
   * @throws IllegalStateException if the signal cannot be sent
   * @throws InterruptedException if interrupted while waiting
   */
  public void suspend() throws InterruptedException {
    sendSignal("STOP");
    Path stat = Path.of("/proc", Long.toString(pid()), "stat");
    if (Files.isReadable(stat)) {
      org.awaitility.Awaitility.await("SIGSTOP to take effect on " + name)
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> processState(stat) == 'T');
    }
  }

  /**
   * Lets a child stopped by {@link #suspend()} continue, with SIGCONT.
   *
   * @throws IllegalStateException if the signal cannot be sent
   * @throws InterruptedException if interrupted while waiting for the {@code kill} command
   */
  public void resume() throws InterruptedException {
    sendSignal("CONT");
  }

  /**
   * Kills the child with SIGKILL, as a crash or the OOM killer would, and waits until it is gone
   * and reaped, so that its pid no longer names a running (or zombie) process.
   *
   * @return the exit code the system reports
   * @throws InterruptedException if interrupted while waiting
   * @throws AssertionError if the child does not die within 10 s
   */
  public int kill() throws InterruptedException {
    // Through the handle: Process.destroyForcibly() also closes our end of the child's output,
    // and the lines it wrote just before dying would be lost to the reader.
    process.toHandle().destroyForcibly();
    return awaitExit(EXIT_WAIT);
  }

  /**
   * Waits for the child to exit on its own.
   *
   * @param timeout the longest wait
   * @return its exit code
   * @throws AssertionError if it is still running after {@code timeout}
   * @throws InterruptedException if interrupted while waiting
   */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new AssertionError(name + " did not exit within " + timeout + "\n" + diagnostics());
    }
    // Let the readers drain what the child wrote before it exited.
    stdout.awaitEnd(EXIT_WAIT);
    stderr.awaitEnd(EXIT_WAIT);
    return process.exitValue();
  }

  /**
   * Tells whether the child still runs (a stopped child runs).
   *
   * @return {@code true} until it exits or is killed
   */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Describes the child for a failure message: its pid, state, standard output and error.
   *
   * @return a multi-line description
   */
  public String diagnostics() {
    String state = process.isAlive() ? "running" : "exited with " + process.exitValue();
    return name
        + " ("
        + state
        + ")\n--- stdout ---\n"
        + String.join("\n", stdout.snapshot())
        + "\n--- stderr ---\n"
        + String.join("\n", stderr.snapshot());
  }

  /**
   * Destroys the child (SIGKILL, which also ends a stopped child) and waits for it to be reaped.
   */
  @Override
  public void close() {
    try {
      stdin.close();
    } catch (IOException alreadyGone) {
      // the child exited: nothing to close
    }
    // A child may have started processes of its own (the lease command's): they go too.
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    boolean interrupted = false;
    while (true) {
      try {
        process.waitFor(EXIT_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        break;
      } catch (InterruptedException e) {
        interrupted = true; // finish the clean-up first, then restore the flag
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private void sendSignal(String signal) throws InterruptedException {
    ProcessBuilder kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid()));
    kill.redirectErrorStream(true);
    try {
      Process sender = kill.start();
      String output = new String(sender.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (sender.waitFor() != 0) {
        throw new IllegalStateException(
            "kill -" + signal + " " + pid() + " failed: " + output.trim());
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill -" + signal + " " + pid(), e);
    }
  }

  /** The state letter of {@code /proc/<pid>/stat}: the field after the parenthesised command. */
  private static char processState(Path stat) throws IOException {
    String text = Files.readString(stat, StandardCharsets.UTF_8);
    int end = text.lastIndexOf(')');
    return end < 0 || end + 2 >= text.length() ? '?' : text.charAt(end + 2);
  }

  /** Lines read from one stream, and whether it ended. */
  private static final class Transcript {
    final List<String> lines = new ArrayList<>(); // guarded by this
    boolean ended; // guarded by this

    synchronized void add(String line) {
      lines.add(line);
      notifyAll();
    }

    synchronized void end() {
      ended = true;
      notifyAll();
    }

    synchronized List<String> snapshot() {
      return List.copyOf(lines);
    }

    synchronized String awaitAny(
        String description, Predicate<String> matches, Duration timeout, ChildJvm child)
        throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      for (int seen = 0; ; ) {
        for (; seen < lines.size(); seen++) {
          if (matches.test(lines.get(seen))) {
            return lines.get(seen);
          }
        }
        long left = deadline - System.nanoTime();
        if (ended || left <= 0) {
          throw new AssertionError(
              (ended ? "output ended" : "timed out after " + timeout)
                  + " while waiting for "
                  + description
                  + "\n"
                  + child.diagnostics());
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    synchronized void awaitEnd(Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      for (long left = timeout.toNanos(); !ended && left > 0; left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }
}
