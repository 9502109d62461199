package dev.rivus.agentkit.lease;

/**
 * Work raced against the loss of a lease by {@link Lease#runUntilLost(LeaseWork)}.
 *
 * @param <T> the result type
 * @param <X> the checked exception the work may throw
 */
@FunctionalInterface
public interface LeaseWork<T, X extends Exception> {

  /**
   * Runs the work.
   *
   * @return the result
   * @throws X if the work fails
   * @throws InterruptedException if the work was interrupted (on loss of the lease, or from
   *     elsewhere)
   */
  T run() throws X, InterruptedException;
}
