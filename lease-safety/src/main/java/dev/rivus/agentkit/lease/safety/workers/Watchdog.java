/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Gives every library call of a worker a deadline. A call that has not ended by then is a hang: the
 * watchdog logs it with a dump of every thread of the JVM, once per call.
 *
 * <p>Thread-safe.
 */
final class Watchdog implements AutoCloseable {

  private final JsonLines log;
  private final String worker;
  private final Duration deadline;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "watchdog");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * Creates a watchdog.
   *
   * @param log where hangs go
   * @param worker the worker's id, for the log
   * @param deadline how long a call may take
   */
  public Watchdog(JsonLines log, String worker, Duration deadline) {
    this.log = log;
    this.worker = worker;
    this.deadline = deadline;
  }

  /** One watched call; closing it before its deadline ends the watch. */
  public interface Watch extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Starts watching a call.
   *
   * @param call what the call is, for example {@code acquire}
   * @param key the lease key it is about
   * @return the watch, to close when the call ends
   */
  public Watch watch(String call, String key) {
    ScheduledFuture<?> alarm =
        timer.schedule(() -> hang(call, key), deadline.toNanos(), TimeUnit.NANOSECONDS);
    return () -> alarm.cancel(false);
  }

  private void hang(String call, String key) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", worker);
    line.put("ev", "hang");
    line.put("call", call);
    line.put("key", key);
    line.put("deadlineMs", deadline.toMillis());
    line.put("threads", threadDump());
    log.write(line);
  }

  /**
   * Dumps every thread's state and whole stack, as {@code jstack} would.
   *
   * @return the dump
   */
  static String threadDump() {
    StringBuilder dump = new StringBuilder();
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      dump.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
      if (info.getLockName() != null) {
        dump.append(" on ").append(info.getLockName());
      }
      if (info.getLockOwnerName() != null) {
        dump.append(" owned by \"").append(info.getLockOwnerName()).append('"');
      }
      dump.append('\n');
      for (StackTraceElement frame : info.getStackTrace()) {
        dump.append("    at ").append(frame).append('\n');
      }
      dump.append('\n');
    }
    return dump.toString();
  }

  /**
   * Renders an exception's stack trace, causes and suppressed ones included.
   *
   * @param e the exception
   * @return the trace
   */
  static String stackOf(Throwable e) {
    java.io.StringWriter trace = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(trace));
    return trace.toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
