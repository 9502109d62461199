package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;

/**
 * Everything a lease manager takes from its surroundings: a monotonic clock, a wall clock, a
 * scheduler, the identity of the current process and a judgement of other processes' liveness. The
 * library reads no global clock and starts no thread except through this interface.
 *
 * <p>Implementations are thread-safe. Use {@link #system()} in production and {@link FakePlatform}
 * in tests.
 */
public interface Platform {

  /**
   * Returns the system platform: {@link System#nanoTime()}, the system wall clock, daemon threads,
   * and process facts read from {@code /proc} on Linux (elsewhere liveness is always {@link
   * Liveness#UNKNOWN}, so takeover waits for the TTL).
   *
   * @return a new system platform
   */
  static Platform system() {
    return new SystemPlatform();
  }

  /**
   * Returns monotonic time in nanoseconds, for measuring durations only.
   *
   * @return the current value of the monotonic clock
   */
  long nanoTime();

  /**
   * Returns the wall-clock time, written to records for people to read and never used for expiry.
   *
   * @return the current wall-clock time
   */
  Instant now();

  /**
   * Waits for {@code duration} on this platform's monotonic clock.
   *
   * @param duration how long to wait; zero or negative returns at once
   * @throws InterruptedException if the thread was interrupted while waiting
   */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Starts a scheduler for one lease manager. The caller closes it.
   *
   * @param name a name for its threads, for thread dumps
   * @return the new scheduler
   */
  LeaseScheduler newScheduler(String name);

  /**
   * Returns the identity of the current process.
   *
   * @return this process
   */
  ProcessIdentity currentProcess();

  /**
   * Judges whether another process, named in a lease record, is still running. Anything this
   * platform cannot read means {@link Liveness#UNKNOWN}, never {@link Liveness#GONE}.
   *
   * @param holder the process named by the record
   * @return alive, gone (or its pid reused), or unknown
   */
  Liveness liveness(ProcessIdentity holder);
}
