/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.resource.ResourceClient;
import dev.rivus.agentkit.lease.safety.store.SideTransactions;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A worker's loop: acquire a random key, run fenced work on the protected resource with the token
 * (ENTER, a few READ–sleep–WRITE steps, EXIT), release; log one line per event. Every library call
 * runs under the watchdog's deadline. Expected failures are logged by type; anything else escaping
 * the library is logged as {@code raw}, a violation. After a repository failure the next cycle
 * waits a little, longer after each failure in a row ({@link FailureBackOff}).
 *
 * <p>Not thread-safe: one worker per thread.
 */
final class Worker {

  private final WorkerSettings settings;
  private final LeaseManager leases;
  private final ResourceClient resource;
  private final JsonLines log;
  private final Watchdog watchdog;
  private final Random random;
  private final @Nullable SideTransactions side;
  private final FailureBackOff backOff = new FailureBackOff();

  Worker(
      WorkerSettings settings,
      LeaseManager leases,
      ResourceClient resource,
      JsonLines log,
      Watchdog watchdog) {
    this(settings, leases, resource, log, watchdog, null);
  }

  /** A worker that also runs a fenced transaction on the database in each fenced section. */
  Worker(
      WorkerSettings settings,
      LeaseManager leases,
      ResourceClient resource,
      JsonLines log,
      Watchdog watchdog,
      @Nullable SideTransactions side) {
    this.side = side;
    this.settings = settings;
    this.leases = leases;
    this.resource = resource;
    this.log = log;
    this.watchdog = watchdog;
    this.random = new Random(settings.seed());
  }

  /**
   * Runs cycles until {@code stopping} says so, pausing after repository failures ({@link
   * FailureBackOff}).
   */
  void run(BooleanSupplier stopping) {
    while (!stopping.getAsBoolean()) {
      cycle(settings.keys().get(random.nextInt(settings.keys().size())));
      if (!backOff.pause(stopping)) {
        return; // interrupted: nobody interrupts a worker but its JVM's end
      }
    }
  }

  private void cycle(String key) {
    Lease lease = acquire(key);
    if (lease == null) {
      return;
    }
    lease
        .lost()
        .thenAccept(
            lost -> {
              Map<String, Object> line = event("lost", key, lease.generation());
              line.put("reason", lost.reason().name());
              log.write(line);
            });
    fenced(lease);
    log.write(event("release_start", key, lease.generation()));
    try (Watchdog.Watch watch = watchdog.watch("close", key)) {
      lease.close();
      log.write(event("released", key, lease.generation()));
    } catch (RuntimeException e) {
      raw("close", key, e);
    }
  }

  private @Nullable Lease acquire(String key) {
    log.write(event("acquire_start", key, 0));
    // Mostly a bounded wait (so that TTL takeovers happen inside it), sometimes fail-fast.
    Duration maxWait = Duration.ofMillis(random.nextInt(4) == 0 ? 0 : 200 + random.nextInt(3000));
    try (Watchdog.Watch watch = watchdog.watch("acquire", key)) {
      Lease lease = leases.acquire(key, maxWait);
      backOff.succeeded();
      log.write(event("acquire_ok", key, lease.generation()));
      return lease;
    } catch (LeaseHeld held) {
      backOff.succeeded(); // the store answered
      log.write(event("acquire_held", key, held.generation()));
    } catch (LeaseException failure) {
      if (failure instanceof LeaseRepositoryFailure) {
        backOff.failed();
      }
      Map<String, Object> line = event("acquire_failed", key, 0);
      line.put("error", failure.getClass().getSimpleName());
      line.put("message", String.valueOf(failure.getMessage()));
      log.write(line);
    } catch (InterruptedException | RuntimeException e) {
      raw("acquire", key, e);
    }
    return null;
  }

  private void fenced(Lease lease) {
    String key = lease.key();
    log.write(event("fenced_start", key, lease.generation()));
    try (Watchdog.Watch watch = watchdog.watch("runFenced", key)) {
      lease.runFenced(this::work);
      log.write(event("fenced_end", key, lease.generation()));
    } catch (LeaseLost lost) {
      Map<String, Object> line = event("fenced_lost", key, lease.generation());
      line.put("reason", lost.reason().name());
      log.write(line);
    } catch (LeaseException failure) {
      if (failure instanceof LeaseRepositoryFailure) {
        backOff.failed();
      }
      Map<String, Object> line = event("fenced_failed", key, lease.generation());
      line.put("error", failure.getClass().getSimpleName());
      line.put("message", String.valueOf(failure.getMessage()));
      log.write(line);
    } catch (InterruptedException | RuntimeException e) {
      raw("runFenced", key, e);
    }
    if (Thread.interrupted()) {
      // The library must never leave its loss interrupt behind on the worker's thread.
      raw("runFenced", key, new IllegalStateException("interrupt left behind after runFenced"));
    }
  }

  private Void work(FencingToken token) throws InterruptedException {
    String key = token.key();
    long g = token.generation();
    String id = settings.id();
    resource.call("ENTER " + key + " " + g + " " + id);
    try {
      int steps = 1 + random.nextInt(3);
      // One section in four spans heartbeats, so that renewals, stops and clock jumps meet
      // fenced work in progress, not only idle holders.
      boolean slow = random.nextInt(4) == 0;
      for (int step = 0; step < steps; step++) {
        String read = resource.call("READ " + key + " " + g + " " + id);
        long value = read.startsWith("OK ") ? Long.parseLong(read.substring(3)) : -1;
        Thread.sleep(slow ? 150 + random.nextInt(450) : 10 + random.nextInt(60));
        String reply = resource.call("WRITE " + key + " " + g + " " + id + " " + (value + 1));
        Map<String, Object> line = event("write", key, g);
        line.put("accepted", reply.equals("ACCEPTED"));
        log.write(line);
      }
      if (side != null) {
        // Inside the section, so that faults aimed at holders meet fenced transactions too.
        side.run(token);
      }
    } finally {
      resource.call("EXIT " + key + " " + g + " " + id);
    }
    return null;
  }

  private Map<String, Object> event(String name, String key, long token) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", settings.id());
    line.put("ev", name);
    line.put("key", key);
    if (token != 0) {
      line.put("token", token);
    }
    return line;
  }

  private void raw(String call, String key, Exception e) {
    Map<String, Object> line = event("raw", key, 0);
    line.put("call", call);
    line.put("error", e.getClass().getName());
    line.put("message", String.valueOf(e.getMessage()));
    line.put("stack", Watchdog.stackOf(e));
    log.write(line);
  }
}
