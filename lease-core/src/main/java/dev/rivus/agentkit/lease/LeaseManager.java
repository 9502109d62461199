package dev.rivus.agentkit.lease;

import dev.rivus.agentkit.lease.internal.DefaultLeaseManager;
import dev.rivus.agentkit.lease.platform.Platform;
import java.time.Duration;

/**
 * Acquires leases from one repository with one configuration, and keeps them renewed.
 *
 * <p>One renewer per manager renews every lease it holds in one batch per heartbeat ({@link
 * LeaseRepository#saveAll}); each lease keeps its own revision and expiry. A manager runs on at
 * most six threads, started when needed: one timer, which only changes state (a lease expires, a
 * round falls due), two for repository calls, two for interrupts and cancel actions, and one for
 * notifications (logging, {@link Lease#lost()} stages), so that nothing that blocks, not a hung
 * repository call, a log write or a user's callback, delays a renewal or an expiry. It owns no
 * global state. Closing it releases every lease it still holds, in one batch, and stops its
 * threads. Thread-safe.
 *
 * <pre>{@code
 * try (LeaseManager leases = LeaseManager.create(FileLeaseRepository.open(dir), LeaseConfig.defaults());
 *     Lease lease = leases.acquire("task:42")) {
 *   lease.runFenced(token -> store.write(result, token.generation()));
 * }
 * }</pre>
 */
public interface LeaseManager extends AutoCloseable {

  /**
   * Creates a manager on the system platform.
   *
   * @param repository where lease records live; the manager does not close it
   * @param config TTL and heartbeat
   * @return the manager
   * @throws NullPointerException if an argument is null
   */
  static LeaseManager create(LeaseRepository repository, LeaseConfig config) {
    return create(repository, config, Platform.system());
  }

  /**
   * Creates a manager on the given platform (clock, scheduler, host and process facts), for example
   * a {@code FakePlatform} in tests.
   *
   * @param repository where lease records live; the manager does not close it
   * @param config TTL and heartbeat
   * @param platform clocks, scheduler and process facts
   * @return the manager
   * @throws NullPointerException if an argument is null
   */
  static LeaseManager create(LeaseRepository repository, LeaseConfig config, Platform platform) {
    return new DefaultLeaseManager(repository, config, platform);
  }

  /**
   * Acquires the lease on {@code key}, failing fast if another live holder has it.
   *
   * <p>Takes the lease at once if it is free, released, or held by a process on this machine that
   * is gone (or whose pid now names another process); takes it over if this manager has seen the
   * same record unchanged for the TTL on its own monotonic clock. The write that raises the
   * generation is durable before this returns.
   *
   * @param key the lease key (see {@link LeaseKeys})
   * @return the held lease
   * @throws LeaseHeld if another live holder has the lease
   * @throws LeaseRepositoryFailure if the repository failed
   * @throws NullPointerException if the key is null
   * @throws IllegalArgumentException if the key is empty or too long
   * @throws IllegalStateException if the manager is closed
   */
  Lease acquire(String key);

  /**
   * Acquires the lease on {@code key}, trying again until it holds the lease or {@code maxWait} has
   * passed. The record is observed all along, so a holder that stops renewing is taken over within
   * the wait once the TTL has passed.
   *
   * @param key the lease key (see {@link LeaseKeys})
   * @param maxWait how long to keep trying; zero means one try
   * @return the held lease
   * @throws LeaseHeld if another live holder still has the lease when the wait ends
   * @throws LeaseRepositoryFailure if the repository failed
   * @throws InterruptedException if the calling thread was interrupted while waiting
   * @throws NullPointerException if the key or {@code maxWait} is null
   * @throws IllegalArgumentException if the key is empty or too long, or {@code maxWait} is
   *     negative
   * @throws IllegalStateException if the manager is closed
   */
  Lease acquire(String key, Duration maxWait) throws InterruptedException;

  /**
   * Returns the configuration.
   *
   * @return TTL and heartbeat
   */
  LeaseConfig config();

  /**
   * Releases every lease this manager still holds and stops its threads. Does nothing if already
   * closed.
   */
  @Override
  void close();
}
