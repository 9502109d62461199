/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseAutoConfiguration;
import dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseFenceAutoConfiguration;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Spring transactions fenced by the lease ({@link LeaseFence}, {@code @Leased(fencedTransaction =
 * true)}) on PostgreSQL, with two instances of one application sharing the lease tables: a stale
 * holder's writes roll back, its successor's commit.
 */
class LeaseFenceTest {

  private final String leaseTable = SharedServer.freshTableName("lease_fence_");
  private final String jobTable = SharedServer.freshTableName("fence_job_");

  /** Threads of the test's own: the common pool may have one, and a blocked run holds it. */
  private final ExecutorService threads = Executors.newCachedThreadPool();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  LeaseAutoConfiguration.class, LeaseFenceAutoConfiguration.class))
          .withUserConfiguration(Application.class)
          .withPropertyValues("lease.jdbc.table-name=" + leaseTable, "job.table=" + jobTable);

  @BeforeEach
  void createTheJobsTable() throws SQLException {
    SharedServer.POSTGRES.requireReachable();
    SharedServer.POSTGRES.execute(
        "CREATE TABLE " + jobTable + " (instance TEXT NOT NULL, generation BIGINT NOT NULL)");
  }

  @AfterEach
  void dropTheTables() throws SQLException {
    threads.shutdownNow();
    SharedServer.POSTGRES.execute("DROP TABLE IF EXISTS " + jobTable);
    SharedServer.POSTGRES.dropLeaseTable(leaseTable);
  }

  @Test
  void theFenceIsMadeForTheJdbcStoreWithSpringJdbcOnly() {
    runner
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withPropertyValues("instance=a")
        .run(context -> assertThat(context).hasSingleBean(LeaseFence.class));
    ApplicationContextRunner withoutJobs =
        new ApplicationContextRunner()
            .withConfiguration(
                AutoConfigurations.of(
                    LeaseAutoConfiguration.class, LeaseFenceAutoConfiguration.class));
    withoutJobs
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withPropertyValues("lease.jdbc.table-name=" + leaseTable)
        .withClassLoader(new FilteredClassLoader(DataSourceUtils.class))
        .run(
            context -> {
              assertThat(context).hasSingleBean(JdbcLeaseRepository.class);
              assertThat(context).doesNotHaveBean(LeaseFence.class);
            });
    withoutJobs
        .withBean(LeaseRepository.class, MemoryLeaseRepository::new)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(LeaseFence.class);
            });
  }

  @Test
  void aFreshHoldersFencedTransactionCommitsAndTheTransactionRunsOutsideTheLease() {
    runner
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withPropertyValues("instance=a")
        .run(
            context -> {
              Job job = context.getBean(Job.class);
              long fenced = job.fencedFromTheStart();
              long verified = job.verifiedAfterItsWrite(Optional.empty());
              assertThat(rows(context)).containsExactly("a:" + fenced, "a:" + verified);
              // The transaction's advice comes first in the proxy's chain: it runs outside ours.
              List<Advice> chain =
                  Arrays.stream(((Advised) job).getAdvisors()).map(Advisor::getAdvice).toList();
              assertThat(chain).hasSize(2);
              assertThat(chain.get(0)).isInstanceOf(TransactionInterceptor.class);
              assertThat(chain.get(1)).isInstanceOf(LeasedInterceptor.class);
            });
  }

  @Test
  void withoutATransactionTheFenceRefusesWithAMessageNamingTheMethod() {
    runner
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withPropertyValues("instance=a")
        .run(
            context -> {
              Job job = context.getBean(Job.class);
              assertThatThrownBy(job::fencedWithoutATransaction)
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("fencedWithoutATransaction")
                  .hasMessageContaining("@Transactional");
              assertThatThrownBy(job::verifiedWithoutATransaction)
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("LeaseFence.verify() needs an active Spring transaction");
              assertThat(job.bodies()).isZero(); // through the proxy, as callers see the bean
              assertThatThrownBy(() -> context.getBean(LeaseFence.class).verify())
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("no @Leased method runs on this thread");
            });
  }

  @Test
  void aTakeoverTheHolderHasNotNoticedYetIsCaughtByTheDatabaseAndNothingCommits() {
    runner
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withPropertyValues("instance=a", "lease.ttl=60s")
        .run(
            context -> {
              JdbcLeaseRepository store = context.getBean(JdbcLeaseRepository.class);
              Job job = context.getBean(Job.class);
              Throwable thrown =
                  catchThrowable(() -> job.verifiedAfterItsWrite(Optional.of(store)));
              assertThat(thrown).isInstanceOf(LeaseLost.class);
              assertThat(((LeaseLost) thrown).reason()).isEqualTo(LeaseLost.Reason.TAKEN_OVER);
              assertThat(rows(context)).isEmpty();
            });
  }

  @Test
  void aStaleHoldersWritesRollBackAndItsSuccessorsCommit() {
    Gate gate = new Gate();
    runner
        .withBean(DataSource.class, LeaseFenceTest::pool)
        .withBean(Gate.class, () -> gate)
        .withUserConfiguration(Silenceable.class)
        .withPropertyValues("instance=a", "lease.ttl=2s")
        .run(
            a ->
                runner
                    .withBean(DataSource.class, LeaseFenceTest::pool)
                    .withBean(Gate.class, () -> gate)
                    .withPropertyValues("instance=b", "lease.ttl=2s")
                    .run(
                        b -> {
                          CompletableFuture<Long> aRun =
                              CompletableFuture.supplyAsync(
                                  () -> a.getBean(Job.class).stale(), threads);
                          assertThat(gate.aStarted.await(10, TimeUnit.SECONDS)).isTrue();
                          a.getBean(SilencedRenewals.class).silence();
                          // B waits for A's record to stay unchanged for the TTL, then takes
                          // over; A's run goes on, and writes, only after that.
                          CompletableFuture<Long> bRun =
                              CompletableFuture.supplyAsync(
                                  () ->
                                      b.getBean(Job.class).verifiedAfterItsWrite(Optional.empty()),
                                  threads);

                          Throwable aFailed = catchThrowable(() -> aRun.get(30, TimeUnit.SECONDS));
                          assertThat(aFailed).cause().isInstanceOf(LeaseLost.class);
                          assertThat(gate.staleVerify).isNotNull();
                          long successor = bRun.get(30, TimeUnit.SECONDS);
                          assertThat(successor).isGreaterThan(gate.aGeneration);
                          assertThat(rows(b)).containsExactly("b:" + successor);
                        }));
  }

  private static HikariDataSource pool() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(SharedServer.POSTGRES.url());
    config.setMaximumPoolSize(8);
    return new HikariDataSource(config);
  }

  private List<String> rows(ApplicationContext context) {
    return context
        .getBean(JdbcTemplate.class)
        .query(
            "SELECT instance, generation FROM " + jobTable + " ORDER BY generation",
            (row, i) -> row.getString(1) + ":" + row.getLong(2));
  }

  @Configuration(proxyBeanMethods = false)
  @EnableTransactionManagement
  static class Application {
    @Bean
    DataSourceTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    JdbcTemplate jdbcTemplate(DataSource dataSource) {
      return new JdbcTemplate(dataSource);
    }

    @Bean
    Job job(
        JdbcTemplate jdbc,
        ObjectProvider<LeaseFence> fence,
        ObjectProvider<Gate> gate,
        Environment environment) {
      return new Job(
          jdbc,
          fence,
          gate,
          environment.getRequiredProperty("instance"),
          environment.getRequiredProperty("job.table"));
    }

    @Bean
    LeaseListener takeovers(ObjectProvider<Gate> gate) {
      return new LeaseListener() {
        @Override
        public void acquired(LeaseEvent.Acquired event) {
          Gate shared = gate.getIfAvailable();
          if (shared != null && event.generation() > shared.aGeneration) {
            shared.takenOver.countDown();
          }
        }
      };
    }
  }

  /**
   * Instance A's store: the JDBC repository, and in front of it, as the manager's, one whose
   * renewals fail once silenced, so that A's record expires while A's run goes on.
   */
  @Configuration(proxyBeanMethods = false)
  static class Silenceable {
    @Bean
    JdbcLeaseRepository jdbcStore(DataSource dataSource, Environment environment) {
      return JdbcLeaseRepository.open(
          dataSource,
          JdbcOptions.builder()
              .tableName(environment.getRequiredProperty("lease.jdbc.table-name"))
              .createIfMissing(true)
              .build());
    }

    @Bean
    @Primary
    SilencedRenewals leaseRepository(JdbcLeaseRepository store) {
      return new SilencedRenewals(store);
    }
  }

  /** What the two instances share: when A runs, its generation, and when B has taken over. */
  static class Gate {
    final CountDownLatch aStarted = new CountDownLatch(1);
    final CountDownLatch takenOver = new CountDownLatch(1);
    volatile long aGeneration = Long.MAX_VALUE;
    volatile @Nullable LeaseLost staleVerify;
  }

  /** A repository whose renewals fail once {@link #silence()} is called. */
  static final class SilencedRenewals extends ForwardingLeaseRepository {
    private volatile boolean silenced;

    SilencedRenewals(LeaseRepository delegate) {
      super(delegate);
    }

    void silence() {
      silenced = true;
    }

    @Override
    public void save(LeaseWrite write) {
      refuseRenewal(List.of(write));
      super.save(write);
    }

    @Override
    public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
      refuseRenewal(writes);
      return super.saveAll(writes);
    }

    private void refuseRenewal(List<LeaseWrite> writes) {
      if (silenced && writes.stream().anyMatch(w -> w.intent() == LeaseWrite.Intent.RENEW)) {
        throw new LeaseRepositoryFailure(null, "renewals are silenced by the test", null);
      }
    }
  }

  /** The job of one instance: a row per run, with the run's token, in the application's table. */
  static class Job {
    private final JdbcTemplate jdbc;
    private final ObjectProvider<LeaseFence> fence;
    private final ObjectProvider<Gate> gate;
    private final String instance;
    private final String table;
    private int bodies;

    Job(
        JdbcTemplate jdbc,
        ObjectProvider<LeaseFence> fence,
        ObjectProvider<Gate> gate,
        String instance,
        String table) {
      this.jdbc = jdbc;
      this.fence = fence;
      this.gate = gate;
      this.instance = instance;
      this.table = table;
    }

    int bodies() {
      return bodies;
    }

    @Transactional
    @Leased(key = "billing", fencedTransaction = true)
    long fencedFromTheStart() {
      assertThat(TransactionSynchronizationManager.isActualTransactionActive()).isTrue();
      return write(CurrentLease.token());
    }

    /**
     * Writes, then verifies; with a store given, first writes a successor's record to it, as a
     * takeover this holder has not noticed yet.
     */
    @Transactional
    @Leased(key = "billing", maxWait = "30s")
    long verifiedAfterItsWrite(Optional<JdbcLeaseRepository> takeOverIn) {
      FencingToken token = CurrentLease.token();
      takeOverIn.ifPresent(store -> takeOver(store, token.key()));
      long generation = write(token);
      assertThat(token.isHeld()).isTrue();
      fence.getObject().verify();
      return generation;
    }

    /** A's run: it goes on, ignoring the interrupt of its loss, until B has taken over. */
    @Transactional
    @Leased(key = "billing")
    long stale() {
      Gate shared = gate.getObject();
      FencingToken token = CurrentLease.token();
      shared.aGeneration = token.generation();
      shared.aStarted.countDown();
      boolean interrupted = false;
      try {
        while (true) {
          try {
            assertThat(shared.takenOver.await(30, TimeUnit.SECONDS)).isTrue();
            break;
          } catch (InterruptedException e) {
            interrupted = true; // the loss of the lease; a stale holder goes on regardless
          }
        }
        long generation = write(token);
        try {
          fence.getObject().verify();
        } catch (LeaseLost lost) {
          shared.staleVerify = lost;
          throw lost;
        }
        return generation;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Leased(key = "billing", fencedTransaction = true)
    void fencedWithoutATransaction() {
      bodies++;
    }

    @Leased(key = "billing")
    void verifiedWithoutATransaction() {
      fence.getObject().verify();
      bodies++;
    }

    private long write(FencingToken token) {
      jdbc.update(
          "INSERT INTO " + table + " (instance, generation) VALUES (?, ?)",
          instance,
          token.generation());
      return token.generation();
    }

    private static void takeOver(JdbcLeaseRepository store, String key) {
      LeaseSnapshot current = store.load(key).orElseThrow();
      store.save(
          current.acquisition(
              new HolderIdentity(current.holder().process(), "successor"),
              current.ttl(),
              Instant.now()));
    }
  }
}
