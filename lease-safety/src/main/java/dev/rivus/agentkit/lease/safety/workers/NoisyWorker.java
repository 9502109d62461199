/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A worker whose stderr blocks: a {@link NoisyWorkerMain} JVM (an extra slot, with the phase's
 * longer TTL) whose stderr is a pipe that the driver reads, except during a {@code stderr_block}
 * fault (1–4 s), when it stops reading and the worker's writes to {@code System.err}, the library's
 * logging included, block once the pipe is full. It takes no kill or stop; after a lost store the
 * driver restarts it with the others.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
public final class NoisyWorker implements AutoCloseable {

  private final WorkerSettings template;
  private final JsonLines driverLog;
  private int life;
  private String id = "";
  private volatile boolean blocked;
  private @Nullable Process process;

  /**
   * A noisy worker, not started yet.
   *
   * @param template the settings every life starts from
   * @param driverLog the driver's log
   */
  public NoisyWorker(WorkerSettings template, JsonLines driverLog) {
    this.template = template;
    this.driverLog = driverLog;
  }

  /**
   * The id of the worker's current life.
   *
   * @return {@code w6.2}, or empty before the first start
   */
  public String id() {
    return id;
  }

  /** Starts the worker's next life. */
  public void start() {
    life++;
    WorkerSettings settings =
        new WorkerSettings(
            template.id() + "." + life,
            template.store(),
            template.phaseDirectory(),
            template.port(),
            template.ttl(),
            template.heartbeat(),
            template.keys(),
            template.seed() * 37 + life,
            template.deadline());
    id = settings.id();
    // ChildJvm's command (its default options: -Xmx96m, serial GC, C1 only); the streams are read
    // here, since the fault is a pipe nobody reads.
    ProcessBuilder command =
        ChildJvm.builder(NoisyWorkerMain.class.getName()).args(settings.toArgs()).processBuilder();
    Process started;
    try {
      started = command.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the noisy worker", e);
    }
    process = started;
    daemon(() -> drain(started.getInputStream(), false), id + "-stdout");
    daemon(() -> drain(started.getErrorStream(), true), id + "-stderr");
    Map<String, Object> line = fault("spawn");
    line.put("pid", started.pid());
    driverLog.write(line);
  }

  private void drain(InputStream in, boolean stderr) {
    byte[] buffer = new byte[4096];
    try (in) {
      while (true) {
        while (stderr && blocked) {
          Thread.sleep(20); // the fault: nobody reads the pipe
        }
        if (in.read(buffer) < 0) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the process is gone
    }
  }

  /**
   * Leaves its stderr unread for {@code hold}.
   *
   * @param hold how long
   * @throws InterruptedException if interrupted
   */
  public void block(Duration hold) throws InterruptedException {
    blocked = true;
    Map<String, Object> line = fault("stderr_block");
    line.put("ms", hold.toMillis());
    driverLog.write(line);
    try {
      Thread.sleep(hold.toMillis()); // the fault itself
    } finally {
      blocked = false;
    }
    driverLog.write(fault("cont"));
  }

  /**
   * Asks it to stop after its cycle; a worker that does not, or fails, is logged for P5.
   *
   * @param patience how long it may take
   * @throws InterruptedException if interrupted
   */
  public void stop(Duration patience) throws InterruptedException {
    Process p = process;
    if (p == null) {
      return;
    }
    blocked = false;
    try {
      OutputStream stdin = p.getOutputStream();
      stdin.write("STOP\n".getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException died) {
      // its exit code tells below
    }
    if (!p.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
      Map<String, Object> line = fault("exit_hang");
      line.put("detail", "the noisy worker did not stop within " + patience);
      driverLog.write(line);
      p.destroyForcibly();
    } else if (p.exitValue() != 0) {
      Map<String, Object> line = fault("crash");
      line.put("detail", "the noisy worker exited with " + p.exitValue());
      driverLog.write(line);
    }
    process = null;
  }

  @Override
  public void close() {
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
    }
  }

  private Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", id);
    return line;
  }

  private static void daemon(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }
}
