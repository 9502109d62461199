/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Fences a Spring transaction with the lease of the {@link Leased} method that runs it: the
 * transaction commits only while that lease is still this holder's. For leases in the application's
 * database ({@link JdbcLeaseRepository}), with transactions on the same {@link DataSource} (a
 * {@code DataSourceTransactionManager} or {@code JdbcTransactionManager}, or another that binds
 * that DataSource's connection to the transaction); the Spring Boot auto-configuration makes it a
 * bean then.
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 * * * *")
 * @Transactional
 * @Leased(key = "billing")
 * void bill() {
 *   leaseFence.verify();             // here or after the writes, before the commit
 *   jdbc.update("INSERT INTO invoices ...");
 * }
 * }</pre>
 *
 * <p>{@link #verify()} takes a share lock on the key's generation row in the transaction, held
 * until it ends, and checks that the lease's generation is still the holder's ({@link
 * JdbcLeaseRepository#verifyFence}): if it is not, it throws {@link LeaseLost} and the transaction
 * rolls back (Spring rolls back on an unchecked exception); if it is, no successor's acquisition
 * can commit before the transaction ends, so its writes land before any successor holds the key. A
 * successor waits for that lock, and the server ends a transaction left idle for the lease's TTL,
 * so keep fenced transactions short. The check reads the record on a connection of its own, so a
 * fenced transaction takes a second connection of the pool for a moment. {@link
 * Leased#fencedTransaction()} makes the check before the method's body runs.
 *
 * <p>What it adds to the lease: a {@code @Leased} method whose lease is lost while it runs already
 * fails with {@link LeaseLost}, which rolls back a transaction around it; the fence also covers
 * what the holder cannot see, a successor that took over while this process was paused (its lease
 * still looks held here), and the time between the lease's last check and the commit.
 *
 * <p>Thread-safe.
 */
public final class LeaseFence {

  private final JdbcLeaseRepository repository;
  private final DataSource dataSource;
  private final SQLExceptionTranslator translator = new SQLExceptionSubclassTranslator();

  /**
   * Makes the fence of the leases in {@code repository}, for transactions on {@code dataSource}.
   *
   * @param repository the store of the leases
   * @param dataSource the DataSource the repository is on, whose transactions are fenced
   * @throws NullPointerException if an argument is null
   */
  public LeaseFence(JdbcLeaseRepository repository, DataSource dataSource) {
    this.repository = Objects.requireNonNull(repository, "repository");
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  /**
   * Checks, in the Spring transaction of the calling thread, that the lease of the {@link Leased}
   * method running on it is still its holder's, and keeps it so until the transaction ends: call it
   * in the transaction before its commit, before or after its writes.
   *
   * @throws LeaseLost if the lease is lost here, or the database shows a successor, a release or no
   *     record; let it propagate, so that the transaction rolls back
   * @throws IllegalStateException if no {@link Leased} method runs on this thread, if no Spring
   *     transaction is active, or if the active one does not run on the repository's DataSource
   * @throws DataAccessException if the check failed in the database (Spring's translation of the
   *     {@link SQLException}); the transaction should roll back
   */
  public void verify() {
    Lease lease =
        CurrentLease.lease()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "LeaseFence.verify() needs the lease of a @Leased method, but no @Leased"
                            + " method runs on this thread"));
    check(lease, CurrentLease.token(), null);
  }

  /** The check of {@link Leased#fencedTransaction()}, with messages that name the method. */
  void verifyBefore(Method method, Lease lease, FencingToken token) {
    check(lease, token, method);
  }

  private void check(Lease lease, FencingToken token, @Nullable Method method) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          (method == null
                  ? "LeaseFence.verify() needs an active Spring transaction"
                  : "@Leased(fencedTransaction = true) of "
                      + method
                      + " needs an active Spring transaction when its body starts")
              + ", but none is active on this thread: make the method, or its caller,"
              + " @Transactional (on a @Leased method, Spring's transaction advice runs outside"
              + " the lease's)");
    }
    if (!lease.isHeld()) {
      throw lost(lease);
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      if (!DataSourceUtils.isConnectionTransactional(connection, dataSource)
          || connection.getAutoCommit()) {
        throw new IllegalStateException(
            "the active Spring transaction does not run on the DataSource of the lease store "
                + repository
                + " (its connection there is in auto-commit mode): use a transaction manager on"
                + " that DataSource, such as DataSourceTransactionManager");
      }
      repository.verifyFence(connection, token.key(), token.generation());
    } catch (SQLException e) {
      DataAccessException translated =
          translator.translate("LeaseFence.verify of lease '" + token.key() + "'", null, e);
      throw translated != null
          ? translated
          : new UncategorizedSQLException(
              "LeaseFence.verify of lease '" + token.key() + "'", null, e);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  /** The loss the lease tells, once it is no longer held here. */
  private static LeaseLost lost(Lease lease) {
    LeaseLost lost = lease.lost().toCompletableFuture().getNow(null);
    return lost != null
        ? lost.rethrown()
        : new LeaseLost(lease.key(), lease.generation(), LeaseLost.Reason.RELEASED, null, null);
  }

  @Override
  public String toString() {
    return "LeaseFence[" + repository + "]";
  }
}
