/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * Acquires a lease for {@code lease run}: fails fast, or keeps trying for a while and tells the
 * user on stderr, once at once and then every few seconds, who holds the lease and how long this
 * process has seen the record unchanged.
 *
 * <p>The waiting itself is the manager's blocking {@code acquire(key, maxWait)}, called in slices,
 * so the record is observed all along and a holder that stopped renewing is taken over once this
 * process has seen its record unchanged for the TTL.
 */
final class WaitingAcquirer {

  /** How often to tell a waiting user that the lease is still held. */
  static final Duration REPORT_EVERY = Duration.ofSeconds(5);

  private final LeaseManager manager;
  private final Ticker ticker;
  private final PrintWriter err;
  private final boolean quiet;

  WaitingAcquirer(LeaseManager manager, Ticker ticker, PrintWriter err, boolean quiet) {
    this.manager = manager;
    this.ticker = ticker;
    this.err = err;
    this.quiet = quiet;
  }

  /**
   * Another live holder kept the lease: the command is not run. The caller chooses the exit code
   * ({@code --conflict-exit-code}) and whether to say so ({@code --quiet}).
   */
  static final class Held extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String message;

    Held(String message) {
      super(message, null, false, false);
      this.message = message;
    }

    /** The reason, never null: a Held is always made with one. */
    @Override
    public String getMessage() {
      return message;
    }
  }

  /**
   * Acquires the lease.
   *
   * @param key the lease key
   * @param maxWait how long to keep trying; zero fails fast
   * @return the held lease
   * @throws Held if another live holder keeps the lease
   * @throws InterruptedException if interrupted while waiting
   */
  Lease acquire(String key, Duration maxWait) throws InterruptedException {
    try {
      return manager.acquire(key);
    } catch (LeaseHeld held) {
      if (maxWait.isZero()) {
        throw new Held(describe(held) + "; not waiting (use --wait DURATION)");
      }
      return waitFor(key, maxWait, held);
    }
  }

  private Lease waitFor(String key, Duration maxWait, LeaseHeld first) throws InterruptedException {
    long deadline = ticker.nanoTime() + maxWait.toNanos();
    report(first, "waiting up to " + DurationConverter.format(maxWait));
    while (true) {
      Duration remaining = Duration.ofNanos(Math.max(0, deadline - ticker.nanoTime()));
      Duration slice = remaining.compareTo(REPORT_EVERY) < 0 ? remaining : REPORT_EVERY;
      try {
        return manager.acquire(key, slice);
      } catch (LeaseHeld stillHeld) {
        if (deadline - ticker.nanoTime() <= 0) {
          throw new Held(
              describe(stillHeld) + "; gave up after waiting " + DurationConverter.format(maxWait));
        }
        report(stillHeld, "still waiting");
      }
    }
  }

  private void report(LeaseHeld held, String what) {
    if (quiet) {
      return;
    }
    err.println("lease: " + describe(held) + "; " + what);
    err.flush();
  }

  /**
   * "lease 'k' is held by host pid 12 (generation 3, alive); observed unchanged for 1.0 s of ..."
   *
   * <p>The TTL named is the one this process waits for: the longer of its own and the holder's.
   */
  static String describe(LeaseHeld held) {
    return String.format(
        Locale.ROOT,
        "lease '%s' is held by %s pid %d (generation %d, %s); this process has seen its record"
            + " unchanged for %.1f s of %s",
        held.key(),
        held.holder().process().host(),
        held.holder().process().pid(),
        held.generation(),
        LeaseView.word(held.holderLiveness()),
        held.observedUnchanged().toMillis() / 1000.0,
        LeaseView.known(held.ttl())
            .map(ttl -> "the " + DurationConverter.format(ttl) + " TTL")
            .orElse(
                "an unknown TTL (an older version wrote the record without it): it is taken over"
                    + " once its holder is seen gone, or after 'lease release'"));
  }
}
