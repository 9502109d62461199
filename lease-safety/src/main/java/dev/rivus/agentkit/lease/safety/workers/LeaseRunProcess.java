/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One run of a {@code lease run} worker, a worker life {@code r<slot>.<run>}: the {@code lease}
 * process, its output read and its end logged in the worker's log in the library workers' words
 * ({@code start}, {@code acquire_start}, {@code acquire_ok} with the token the pipeline printed,
 * {@code run_stderr} for the CLI's own lines, {@code run_exit} with the exit code, then {@code
 * release_start} and {@code released} after a run that held, {@code acquire_held} for exit 75,
 * {@code lost} ({@code RUN_LOST}) for exit 76).
 *
 * <p>Thread-safe: the slot's thread runs it, the fault loop reads its state and may leave its
 * stderr unread ({@link #blockStderr}).
 */
public final class LeaseRunProcess {

  private final String id;
  private final String key;
  private final Process process;
  private final boolean outlivesTtl;
  private final JsonLines log;

  /** The reason in {@code lease run}'s "was lost (key lock lost) ..." line. */
  private static final Pattern LOST = Pattern.compile("was lost \\(([a-z ]+)\\)");

  private volatile boolean holds;
  private volatile boolean stderrBlocked;

  /** Why the lease was lost, as {@code lease} said on stderr ("was lost (key lock lost)"). */
  private volatile @Nullable String lostReason;

  private LeaseRunProcess(
      String id, String key, Process process, boolean outlivesTtl, JsonLines log) {
    this.id = id;
    this.key = key;
    this.process = process;
    this.outlivesTtl = outlivesTtl;
    this.log = log;
  }

  /**
   * Logs the run's start and starts its {@code lease} process; {@code null} if it could not be
   * started (logged as a raw exception).
   */
  static @Nullable LeaseRunProcess start(
      LeaseRunCommand command,
      String id,
      String key,
      boolean outlivesTtl,
      ProcessBuilder builder,
      JsonLines log) {
    Map<String, Object> start = event(id, "start", key, 0);
    start.put("ttlMs", LeaseRunCommand.TTL.toMillis());
    start.put("heartbeatMs", LeaseRunCommand.TTL.toMillis() / 4);
    start.put("store", command.store().label());
    if (outlivesTtl) {
      start.put("outlivesTtl", true);
    }
    log.write(start);
    log.write(event(id, "acquire_start", key, 0));
    try {
      return new LeaseRunProcess(id, key, builder.start(), outlivesTtl, log);
    } catch (IOException e) {
      Map<String, Object> line = event(id, "raw", key, 0);
      line.put("call", "lease run");
      line.put("error", e.getClass().getName());
      line.put("message", String.valueOf(e.getMessage()));
      log.write(line);
      return null;
    }
  }

  String id() {
    return id;
  }

  long pid() {
    return process.pid();
  }

  /** Whether its command was made to outlive the TTL ({@link LeaseRunSlot#awaitLongHolder()}). */
  boolean outlivesTtl() {
    return outlivesTtl;
  }

  /** Whether its pipeline said it holds the lease (printed its token). */
  boolean holds() {
    return holds;
  }

  /** Reads its output to the end, waits for it to exit and logs how it ended. */
  void awaitEnd(Runnable onHold) throws InterruptedException {
    Thread err = daemon(this::drainStderr, id + "-stderr");
    long token = readTokens(onHold);
    int code = process.waitFor();
    err.join(5000);
    Map<String, Object> exit = event(id, "run_exit", key, token);
    exit.put("code", code);
    log.write(exit);
    if (token != 0) {
      // Whatever the exit, this lease process no longer holds: a takeover after it is not early.
      log.write(event(id, "release_start", key, token));
    }
    if (code == 75) {
      log.write(event(id, "acquire_held", key, 0));
    } else if (code == 76) {
      Map<String, Object> lost = event(id, "lost", key, token);
      String reason = lostReason;
      lost.put("reason", reason != null ? reason : "RUN_LOST");
      log.write(lost);
    } else if (code == 0 && token != 0) {
      log.write(event(id, "released", key, token));
    }
  }

  /** Reads the command's stdout to its end; logs {@code TOKEN n} as the acquisition. */
  private long readTokens(Runnable onHold) {
    long token = 0;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("TOKEN ")) {
          token = Long.parseLong(line.substring(6).trim());
          log.write(event(id, "acquire_ok", key, token));
          holds = true;
          onHold.run();
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process died: its exit code tells
    }
    return token;
  }

  /** Reads stderr, except while the driver leaves it unread; logs the CLI's own lines. */
  private void drainStderr() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8), 1024)) {
      while (true) {
        while (stderrBlocked) {
          Thread.sleep(20); // the fault: nobody reads the pipe
        }
        String line = in.readLine();
        if (line == null) {
          return;
        }
        if (line.startsWith("lease")) {
          Matcher lost = LOST.matcher(line);
          if (lost.find()) {
            lostReason = lost.group(1).toUpperCase(Locale.ROOT).replace(' ', '_');
          }
          Map<String, Object> said = event(id, "run_stderr", key, 0);
          said.put("line", line);
          log.write(said);
        }
      }
    } catch (IOException | InterruptedException e) {
      // the process is gone
    }
  }

  /** Leaves its stderr pipe unread (the {@code run_stderr} fault), or reads it again. */
  void blockStderr(boolean blocked) {
    stderrBlocked = blocked;
  }

  /** Stops ({@code SIGSTOP}) or continues ({@code SIGCONT}) its {@code lease} process. */
  void signal(String signal) throws InterruptedException {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      kill.waitFor();
    } catch (IOException gone) {
      // no kill command: the fault does nothing, and its log line says when it was meant
    }
  }

  /** Kills its {@code lease} process ({@code kill -9}). */
  void kill() {
    process.destroyForcibly();
  }

  /**
   * Starts a driver log line about this run.
   *
   * @param kind the fault's name in the log
   * @return the line's fields ({@code "w"} the run's id), to add to and write
   */
  public Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", id);
    return line;
  }

  /** A line of the worker's log ({@code key} and {@code token} left out when empty or 0). */
  static Map<String, Object> event(String id, String name, String key, long token) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", id);
    line.put("ev", name);
    if (!key.isEmpty()) {
      line.put("key", key);
    }
    if (token != 0) {
      line.put("token", token);
    }
    return line;
  }

  private static Thread daemon(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
