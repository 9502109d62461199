/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A full disk where no tmpfs could be mounted: {@code strace} attached to a process ({@code -f -p
 * PID}: every thread, and threads and children started meanwhile) fails its writes to the store's
 * files with {@code ENOSPC}, and only those: {@code -P} limits tracing, and so injection, to system
 * calls on the paths named (a write on a descriptor counts by the file it is open on), so the
 * worker's own log files, its standard streams and its sockets write as before. Ending {@code
 * strace} (SIGTERM) detaches it and leaves the process running as before.
 *
 * <p>Not thread-safe: the fault loop owns it, one injection at a time.
 */
final class InjectedEnospc implements AutoCloseable {

  /** The system calls that write data, the ones a full disk fails. */
  static final String WRITES = "write,pwrite64,writev,pwritev,pwritev2,fallocate";

  private static final long ATTACH_MILLIS = 10_000;

  private final List<Process> tracers = new ArrayList<>();
  private final List<Path> outputs = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  /** Whether there is an {@code strace} to run. */
  static boolean available() {
    return Commands.run("strace", "-V") == 0;
  }

  /**
   * Attaches to {@code pid} and waits until every thread is attached.
   *
   * @param pid the process
   * @param paths the files whose writes fail
   * @param output where {@code strace} writes the calls it failed
   * @return whether it attached (else why is among {@link #failures()})
   */
  boolean attach(long pid, List<Path> paths, Path output) throws InterruptedException {
    List<String> command = new ArrayList<>(List.of("strace", "-f", "-p", Long.toString(pid)));
    command.addAll(List.of("-o", output.toString(), "-e", "trace=" + WRITES));
    command.addAll(List.of("-e", "inject=" + WRITES + ":error=ENOSPC"));
    for (Path path : paths) {
      command.addAll(List.of("-P", path.toString()));
    }
    Process strace;
    try {
      strace = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      failures.add(pid + ": " + e.getMessage());
      return false;
    }
    tracers.add(strace);
    outputs.add(output);
    // strace says "Process N attached with K threads" on stderr once it has them all.
    BufferedReader err =
        new BufferedReader(new InputStreamReader(strace.getErrorStream(), StandardCharsets.UTF_8));
    StringBuilder said = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try {
                for (String line = err.readLine(); line != null; line = err.readLine()) {
                  synchronized (said) {
                    said.append(line).append('\n');
                    said.notifyAll();
                  }
                }
              } catch (IOException gone) {
                // strace ended
              }
            },
            "strace-" + pid);
    reader.setDaemon(true);
    reader.start();
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACH_MILLIS);
    synchronized (said) {
      while (!said.toString().contains(" attached") && strace.isAlive()) {
        long left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
        if (left <= 0) {
          break;
        }
        said.wait(Math.min(left, 100));
      }
      if (!said.toString().contains(" attached")) {
        failures.add(pid + ": " + said.toString().trim());
        strace.destroyForcibly();
        return false;
      }
    }
    return true;
  }

  /** Why attaching failed, per process. */
  List<String> failures() {
    return failures;
  }

  /** Detaches from every process; returns how many writes failed with the injected ENOSPC. */
  int detach() throws InterruptedException {
    for (Process strace : tracers) {
      strace.destroy(); // SIGTERM: strace detaches and ends
    }
    for (Process strace : tracers) {
      if (!strace.waitFor(10, TimeUnit.SECONDS)) {
        strace.destroyForcibly();
      }
    }
    tracers.clear();
    int injected = 0;
    for (Path output : outputs) {
      try (Stream<String> lines = Files.lines(output)) {
        injected += (int) lines.filter(line -> line.contains("(INJECTED)")).count();
      } catch (IOException | java.io.UncheckedIOException none) {
        // no output: nothing injected
      }
    }
    outputs.clear();
    return injected;
  }

  /** Detaches at once, should the fault be cut short. */
  @Override
  public void close() {
    tracers.forEach(Process::destroy);
  }
}
