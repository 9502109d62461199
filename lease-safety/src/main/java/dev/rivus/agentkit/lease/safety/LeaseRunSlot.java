/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A worker that is the {@code lease} command: a driver thread runs, one after another, {@code lease
 * run --dir|--db STORE --ttl 2s --heartbeat 500ms --grace 1s --wait W KEY -- bash -c PIPELINE} (the
 * built CLI, {@code dev.rivus.agentkit.lease.cli.LeaseCli}, on the harness's class path), and logs
 * each run as a worker life {@code r<slot>.<run>} in {@code worker-r<slot>.jsonl}.
 *
 * <p>The pipeline ({@link #PIPELINE}) prints {@code TOKEN $LEASE_TOKEN} (the driver logs it as the
 * acquisition), opens a connection to the resource with bash's {@code /dev/tcp}, says {@code ENTER}
 * with {@code $LEASE_TOKEN}, runs 1–3 READ–sleep–WRITE steps (each WRITE from a forked subshell,
 * each step writing 40 KB (two steps fill a pipe) to stderr through {@code head | tr}, and a
 * background {@code sleep}), and says {@code EXIT}. Faults aimed at the {@code lease} process
 * itself: {@code kill -9} (then {@code /proc} is searched for 5 s for a process of the killed tree:
 * its environment's {@code LEASE_RUN_PID}), {@code SIGSTOP} for 1.5 × the TTL, and its stderr left
 * unread for 1–3 s (a pipe the driver stops reading: the pipeline's stderr and the CLI's messages
 * block when it is full).
 *
 * <p>Thread-safe: the fault loop and the run thread meet on this object's monitor.
 */
final class LeaseRunSlot implements AutoCloseable {

  /** The fault kinds, by their name in the driver's log. */
  static final List<String> KINDS = List.of("run_kill", "run_stop", "run_stderr");

  static final Duration TTL = Duration.ofSeconds(2);

  /** The command's script; {@code SAFETY_*} come from the environment. */
  static final String PIPELINE =
      """
      echo "TOKEN $LEASE_TOKEN"
      exec 3<>"/dev/tcp/127.0.0.1/$SAFETY_PORT"
      say() { printf '%s\\n' "$1" >&3; IFS= read -r reply <&3; }
      who="$LEASE_KEY $LEASE_TOKEN $SAFETY_ID"
      say "ENTER $who"
      sleep 0.05 &
      for step in $(seq "$SAFETY_STEPS"); do
        say "READ $who"; v=${reply#OK }
        case "$v" in ''|*[!0-9]*) v=-1;; esac
        head -c 40000 /dev/zero | tr '\\0' . >&2; echo >&2
        sleep "$SAFETY_SLEEP"
        ( say "WRITE $who $((v + 1))" )
      done
      wait
      say "EXIT $who"
      """;

  private final int slot;
  private final StoreKind store;
  private final Path phaseDir;
  private final int port;
  private final Random random;
  private final JsonLines log;
  private final JsonLines driverLog;
  private final Thread thread;
  private int run;
  private boolean closing;
  private boolean paused;
  private volatile boolean stderrBlocked;
  private @Nullable Process current;
  private String currentId = "";
  private boolean currentHolds;

  LeaseRunSlot(int slot, StoreKind store, Path phaseDir, int port, long seed, JsonLines driverLog) {
    this.slot = slot;
    this.store = store;
    this.phaseDir = phaseDir;
    this.port = port;
    this.random = new Random(seed * 31 + slot);
    this.log = JsonLines.append(phaseDir.resolve("worker-r" + slot + ".jsonl"));
    this.driverLog = driverLog;
    this.thread = new Thread(this::loop, "lease-run-r" + slot);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void loop() {
    try {
      while (true) {
        synchronized (this) {
          while (paused && !closing) {
            wait();
          }
          if (closing) {
            return;
          }
        }
        once();
        Thread.sleep(50 + random.nextInt(250)); // pacing between runs
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void once() throws InterruptedException {
    run++;
    String id = "r" + slot + "." + run;
    String key = PhaseRunner.KEYS.get(random.nextInt(PhaseRunner.KEYS.size()));
    String wait = random.nextInt(4) == 0 ? "0s" : 200 + random.nextInt(2500) + "ms";
    boolean slow = random.nextInt(4) == 0;
    String sleep = slow ? "0." + (3 + random.nextInt(6)) : "0.0" + (1 + random.nextInt(9));
    Map<String, Object> start = event(id, "start", key, 0);
    start.put("ttlMs", TTL.toMillis());
    start.put("heartbeatMs", TTL.toMillis() / 4);
    start.put("store", store.label());
    log.write(start);
    log.write(event(id, "acquire_start", key, 0));
    Process process;
    try {
      process = command(id, key, wait, sleep).start();
    } catch (IOException e) {
      Map<String, Object> line = event(id, "raw", key, 0);
      line.put("call", "lease run");
      line.put("error", e.getClass().getName());
      line.put("message", String.valueOf(e.getMessage()));
      log.write(line);
      return;
    }
    synchronized (this) {
      current = process;
      currentId = id;
      currentHolds = false;
    }
    Thread err = daemon(() -> drainStderr(id, key, process.getErrorStream()), id + "-stderr");
    long token = readTokens(id, key, process.getInputStream());
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
      lost.put("reason", "RUN_LOST");
      log.write(lost);
    } else if (code == 0 && token != 0) {
      log.write(event(id, "released", key, token));
    }
    synchronized (this) {
      current = null;
      currentHolds = false;
      notifyAll();
    }
  }

  private ProcessBuilder command(String id, String key, String wait, String sleep) {
    List<String> command = new ArrayList<>();
    Optional<String> java = ProcessHandle.current().info().command();
    command.add(
        java.filter(j -> Files.isExecutable(Path.of(j)))
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.addAll(List.of("dev.rivus.agentkit.lease.cli.LeaseCli", "run"));
    command.add(store == StoreKind.SQLITE ? "--db" : "--dir");
    command.add(store.storePath(phaseDir).toString());
    command.addAll(List.of("--ttl", "2s", "--heartbeat", "500ms", "--grace", "1s"));
    command.addAll(List.of("--wait", wait, key, "--", "bash", "-c", PIPELINE));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.remove("LEASE_DEBUG");
    env.remove("LEASE_JDBC_URL");
    env.put("SAFETY_PORT", Integer.toString(port));
    env.put("SAFETY_ID", id);
    env.put("SAFETY_STEPS", Integer.toString(1 + random.nextInt(3)));
    env.put("SAFETY_SLEEP", sleep);
    return builder;
  }

  /** Reads the command's stdout to its end; logs {@code TOKEN n} as the acquisition. */
  private long readTokens(String id, String key, InputStream stdout) {
    long token = 0;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("TOKEN ")) {
          token = Long.parseLong(line.substring(6).trim());
          log.write(event(id, "acquire_ok", key, token));
          synchronized (this) {
            currentHolds = true;
            notifyAll();
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process died: its exit code tells
    }
    return token;
  }

  /** Reads stderr, except while the driver leaves it unread; logs the CLI's own lines. */
  private void drainStderr(String id, String key, InputStream stderr) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(stderr, StandardCharsets.UTF_8), 1024)) {
      while (true) {
        while (stderrBlocked) {
          Thread.sleep(20); // the fault: nobody reads the pipe
        }
        String line = in.readLine();
        if (line == null) {
          return;
        }
        if (line.startsWith("lease")) {
          Map<String, Object> said = event(id, "run_stderr", key, 0);
          said.put("line", line);
          log.write(said);
        }
      }
    } catch (IOException | InterruptedException e) {
      // the process is gone
    }
  }

  /** Waits up to 3 s for a run that holds its lease, then up to 300 ms more: mid-section. */
  private synchronized @Nullable Process victim() throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while ((current == null || !currentHolds) && System.nanoTime() < until) {
      wait(100);
    }
    return current;
  }

  void kill() throws InterruptedException {
    Process victim = victim();
    if (victim == null) {
      return;
    }
    Thread.sleep(random.nextInt(300)); // somewhere inside the section
    String id;
    synchronized (this) {
      id = currentId;
    }
    long pid = victim.pid();
    Map<String, Object> line = fault("run_kill", id);
    line.put("pid", pid);
    driverLog.write(line);
    victim.destroyForcibly();
    awaitTreeGone(id, pid);
  }

  /** P7's second half: no process of the killed tree may survive (searched in {@code /proc}). */
  private void awaitTreeGone(String id, long pid) throws InterruptedException {
    long start = System.nanoTime();
    List<Long> left = treeOf(pid);
    while (!left.isEmpty() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
      Thread.sleep(20); // polling /proc
      left = treeOf(pid);
    }
    Map<String, Object> line = event(id, left.isEmpty() ? "tree_gone" : "survivor", "", 0);
    line.put("ms", (System.nanoTime() - start) / 1_000_000);
    line.put("pids", left.toString());
    log.write(line);
  }

  /** The processes whose environment names {@code pid} as their {@code lease run}. */
  static List<Long> treeOf(long pid) {
    byte[] marker = ("LEASE_RUN_PID=" + pid + "\0").getBytes(StandardCharsets.UTF_8);
    List<Long> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          byte[] env = Files.readAllBytes(p.resolve("environ"));
          if (indexOf(env, marker) >= 0) {
            found.add(Long.parseLong(name));
          }
        } catch (IOException | SecurityException gone) {
          // exited meanwhile, or not ours to read
        }
      }
    } catch (IOException e) {
      // no /proc: nothing to find
    }
    return found;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (i > 0 && haystack[i - 1] != 0) {
        continue;
      }
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  void stop(Duration stopFor) throws InterruptedException {
    Process victim = victim();
    if (victim == null) {
      return;
    }
    String id;
    synchronized (this) {
      id = currentId;
    }
    long pid = victim.pid();
    StorageFaults.run("kill", "-STOP", Long.toString(pid));
    Map<String, Object> line = fault("run_stop", id);
    line.put("pid", pid);
    line.put("ms", stopFor.toMillis());
    driverLog.write(line);
    Thread.sleep(stopFor.toMillis()); // the fault itself
    StorageFaults.run("kill", "-CONT", Long.toString(pid));
    driverLog.write(fault("cont", id));
  }

  void blockStderr(Duration hold) throws InterruptedException {
    Process victim = victim();
    String id;
    synchronized (this) {
      id = currentId;
    }
    if (victim == null) {
      return;
    }
    stderrBlocked = true;
    Map<String, Object> line = fault("run_stderr", id);
    line.put("ms", hold.toMillis());
    driverLog.write(line);
    Thread.sleep(hold.toMillis()); // the fault itself
    stderrBlocked = false;
    driverLog.write(fault("cont", id));
  }

  synchronized void pause() {
    paused = true;
  }

  synchronized void resume() {
    paused = false;
    notifyAll();
  }

  /** Waits until no run is under way (after {@link #pause()}). */
  synchronized void awaitIdle(Duration patience) throws InterruptedException {
    long until = System.nanoTime() + patience.toNanos();
    while (current != null && System.nanoTime() < until) {
      wait(100);
    }
  }

  /** Lets the current run finish, then ends the loop. */
  @Override
  public void close() {
    synchronized (this) {
      if (closing && !thread.isAlive()) {
        return;
      }
      closing = true;
      notifyAll();
    }
    try {
      thread.join(40_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Process left;
    synchronized (this) {
      left = current;
    }
    if (left != null) {
      left.destroyForcibly();
      Map<String, Object> line = fault("exit_hang", currentId);
      line.put("detail", "lease run did not end within 40 s of the phase's end");
      driverLog.write(line);
    }
  }

  private Map<String, Object> event(String id, String name, String key, long token) {
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

  private static Map<String, Object> fault(String kind, String id) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", id);
    return line;
  }

  private static Thread daemon(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
