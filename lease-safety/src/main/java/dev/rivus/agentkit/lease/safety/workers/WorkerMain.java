/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.driver.PhaseRunner;
import dev.rivus.agentkit.lease.safety.resource.ResourceClient;
import dev.rivus.agentkit.lease.safety.store.Database;
import dev.rivus.agentkit.lease.safety.store.JdbcStore;
import dev.rivus.agentkit.lease.safety.store.SideTransactions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A worker JVM: {@code WorkerMain --id ... (see WorkerSettings)}. Prints {@code READY} when its
 * manager is built, then runs {@link Worker} cycles. It takes commands on standard input, one per
 * line: {@code WALL millis} shifts its wall clock, {@code MONO millis} moves its monotonic ticker
 * forward, {@code STOP} (or the end of input) ends the loop after the current cycle.
 *
 * <p>A program: one worker loop on the main thread, and a thread that reads the driver's commands.
 */
public final class WorkerMain {

  private WorkerMain() {}

  /**
   * Runs a worker.
   *
   * @param args its settings
   */
  public static void main(String[] args) {
    WorkerSettings settings = WorkerSettings.parse(args);
    Skew skew = new Skew();
    AtomicBoolean stopping = new AtomicBoolean();
    try (JsonLines log = JsonLines.append(settings.logFile());
        Watchdog watchdog = new Watchdog(log, settings.id(), settings.deadline());
        ResourceClient resource = ResourceClient.connect(settings.port());
        LeaseRepository repository = open(settings);
        LeaseManager leases =
            LeaseManager.builder(new RenewalLog(repository, log, settings.id()))
                .ttl(settings.ttl())
                .heartbeat(settings.heartbeat())
                .grace(PhaseRunner.GRACE)
                .ticker(skew.ticker())
                .wallClock(skew.clock())
                .listener(new Listener(log, settings.id()))
                .name(settings.id())
                .build()) {
      Map<String, Object> start = line(settings.id(), "start");
      start.put("pid", ProcessHandle.current().pid());
      start.put("ttlMs", settings.ttl().toMillis());
      start.put("heartbeatMs", settings.heartbeat().toMillis());
      start.put("store", settings.store().label());
      log.write(start);
      startControl(skew, stopping, log, settings.id());
      System.out.println("READY");
      System.out.flush();
      new Worker(settings, leases, resource, log, watchdog, side(settings, repository, log))
          .run(stopping::get);
      log.write(line(settings.id(), "stop"));
    }
  }

  /** The phase's store; on a database, the worker slot's own pool through its own proxy. */
  private static LeaseRepository open(WorkerSettings settings) {
    return Database.of(settings.store()) != null
        ? JdbcStore.open(settings.phaseDirectory(), settings.id())
        : settings.store().open(settings.phaseDirectory());
  }

  /** On a database, slots 1 and 2 (one of each TTL) also run fenced transactions. */
  private static @Nullable SideTransactions side(
      WorkerSettings settings, LeaseRepository repository, JsonLines log) {
    boolean writes = settings.id().startsWith("w1.") || settings.id().startsWith("w2.");
    return repository instanceof JdbcStore && writes
        ? new SideTransactions((JdbcStore) repository, log, settings.id(), settings.seed() + 7)
        : null;
  }

  private static Map<String, Object> line(String worker, String event) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", worker);
    line.put("ev", event);
    return line;
  }

  /** Reads the driver's commands from standard input. */
  private static void startControl(Skew skew, AtomicBoolean stopping, JsonLines log, String id) {
    Thread control =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                for (String cmd = in.readLine(); cmd != null && !cmd.equals("STOP"); ) {
                  String[] words = cmd.split(" ");
                  Duration by = Duration.ofMillis(Long.parseLong(words[1]));
                  if (words[0].equals("WALL")) {
                    skew.jumpWall(by);
                  } else {
                    skew.jumpMonotonic(by);
                  }
                  Map<String, Object> line = line(id, "clock");
                  line.put("clock", words[0].equals("WALL") ? "wall" : "mono");
                  line.put("ms", by.toMillis());
                  log.write(line);
                  System.out.println("JUMPED " + cmd);
                  System.out.flush();
                  cmd = in.readLine();
                }
              } catch (IOException parentGone) {
                // as the end of input: stop
              } finally {
                stopping.set(true);
              }
            },
            "control");
    control.setDaemon(true);
    control.start();
  }

  /** Logs the library's own account of acquisitions and failed renewals. */
  private static final class Listener implements LeaseListener {
    private final JsonLines log;
    private final String worker;

    Listener(JsonLines log, String worker) {
      this.log = log;
      this.worker = worker;
    }

    @Override
    public void acquired(LeaseEvent.Acquired event) {
      Map<String, Object> line = line(worker, "acquired");
      line.put("key", event.key());
      line.put("token", event.generation());
      line.put("how", event.how().name());
      log.write(line);
    }

    @Override
    public void renewalFailed(LeaseEvent.RenewalFailed event) {
      Map<String, Object> line = line(worker, "renewal_failed");
      line.put("key", event.key());
      line.put("token", event.generation());
      line.put("error", event.cause().getClass().getSimpleName());
      log.write(line);
    }
  }
}
