/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseEvent;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcLeaseRepository;
import dev.rivus.agentkit.lease.jdbc.JdbcOptions;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * How soon a waiter gets a lock its holder lets go: a holder and a waiter on two store instances
 * (two pools, or two repositories on one SQLite file), the waiter already waiting ({@code
 * acquire(key, 10 s)} after its first attempt failed; {@code tryLock(10, SECONDS)} for Spring), the
 * holder releases; measured from the holder's release returning to the waiter's acquisition
 * returning ({@link System#nanoTime()} across the two threads). The release comes 50 to 250 ms
 * after the waiter started waiting, at random, so that it lands at any point of a poller's cycle.
 * The contenders take turns, one hand-off each, so that they share the machine's moments alike.
 *
 * <ul>
 *   <li>this library on PostgreSQL, the waiter woken by its watch ({@code LISTEN}/{@code NOTIFY});
 *   <li>the same with the waiter's watch hidden, so it polls as before (every 200 ms, jittered);
 *   <li>Spring Integration's {@link JdbcLockRegistry}, two registries on one {@code INT_LOCK}
 *       table, {@code tryLock} polling every 100 ms (its default);
 *   <li>this library on SQLite, two repository instances on one file, woken by the directory watch.
 * </ul>
 *
 * <p>TTL 20 s, heartbeat 5 s: without a notice the watch's re-check would come after 5 s.
 *
 * <pre>
 * mvn -q -pl lease-bench -am package -DskipTests
 * java -cp lease-bench/target/benchmarks.jar dev.rivus.agentkit.lease.bench.HandOffRunner 200
 * </pre>
 *
 * <p>Argument: the hand-offs measured per contender (default 200), after 10 unmeasured ones.
 */
public final class HandOffRunner {

  private static final Duration TTL = Duration.ofSeconds(20);
  private static final Duration HEARTBEAT = Duration.ofSeconds(5);
  private static final Duration MAX_WAIT = Duration.ofSeconds(10);
  private static final int WARM_UP = 10;
  private static final String KEY = "hand-off";

  private HandOffRunner() {}

  /** One contender: a holder and a waiter on two instances of one store. */
  private interface HandOff extends AutoCloseable {
    String name();

    /**
     * One hand-off.
     *
     * @return nanoseconds from the holder's release returning to the waiter's acquisition returning
     */
    long once() throws Exception;
  }

  /**
   * Runs the measurement.
   *
   * @param args the number of hand-offs per contender
   * @throws Exception if a store cannot be used
   */
  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    ExecutorService waiters =
        Executors.newCachedThreadPool(
            task -> {
              Thread thread = new Thread(task, "hand-off-waiter");
              thread.setDaemon(true);
              return thread;
            });
    Path dir = Files.createTempDirectory("lease-bench-handoff");
    List<HandOff> contenders = new ArrayList<>();
    try {
      contenders.add(postgres("lease PostgreSQL, watch", false, waiters));
      contenders.add(postgres("lease PostgreSQL, poll (no watch)", true, waiters));
      contenders.add(new SpringHandOff(waiters));
      contenders.add(sqlite(dir.resolve("leases.db"), waiters));
      List<Latencies> results = new ArrayList<>();
      for (int i = 0; i < contenders.size(); i++) {
        results.add(new Latencies());
      }
      for (int round = 0; round < WARM_UP + count; round++) {
        for (int i = 0; i < contenders.size(); i++) {
          long nanos = contenders.get(i).once();
          if (round >= WARM_UP) {
            results.get(i).add(nanos);
          }
        }
      }
      System.out.println("| contender | hand-offs | p50 ms | p99 ms | max ms |");
      System.out.println("|---|---|---|---|---|");
      for (int i = 0; i < contenders.size(); i++) {
        Latencies latencies = results.get(i);
        System.out.printf(
            Locale.ROOT,
            "| %s | %d | %.1f | %.1f | %.1f |%n",
            contenders.get(i).name(),
            latencies.size(),
            latencies.percentile(50) / 1e6,
            latencies.percentile(99) / 1e6,
            latencies.percentile(100) / 1e6);
      }
    } finally {
      for (HandOff contender : contenders) {
        contender.close();
      }
      waiters.shutdownNow();
      TempDirs.delete(dir);
    }
  }

  private static HandOff postgres(String name, boolean hideWatch, ExecutorService waiters)
      throws Exception {
    JdbcServers server = JdbcServers.POSTGRESQL;
    String table = JdbcServers.freshTable("handoff");
    HikariDataSource holderPool = server.pool("lease-bench-handoff-holder");
    HikariDataSource waiterPool = server.pool("lease-bench-handoff-waiter");
    JdbcLeaseRepository holder =
        JdbcLeaseRepository.open(
            holderPool, JdbcOptions.builder().tableName(table).createIfMissing(true).build());
    JdbcLeaseRepository waiter =
        JdbcLeaseRepository.open(waiterPool, JdbcOptions.builder().tableName(table).build());
    return new LeaseHandOff(
        name,
        holder,
        hideWatch ? new NoWatch(waiter) : waiter,
        waiters,
        () -> {
          holderPool.close();
          waiterPool.close();
          server.drop(table);
        });
  }

  private static HandOff sqlite(Path file, ExecutorService waiters) {
    SqliteLeaseRepository holder = SqliteLeaseRepository.open(file);
    SqliteLeaseRepository waiter = SqliteLeaseRepository.open(file);
    return new LeaseHandOff("lease SQLite, two instances", holder, waiter, waiters, () -> {});
  }

  /** A repository whose watch is hidden: its waiters poll. */
  private static final class NoWatch extends ForwardingLeaseRepository {
    NoWatch(LeaseRepository delegate) {
      super(delegate);
    }

    @Override
    public Optional<KeyWatch> watchKey(String key) {
      return Optional.empty();
    }
  }

  /** The release lands 50 to 250 ms after the waiter started waiting. */
  private static void pauseBeforeRelease() throws InterruptedException {
    TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(50_000, 250_000));
  }

  /** Two lease managers on two repositories of one store. */
  private static final class LeaseHandOff implements HandOff {
    private final String name;
    private final LeaseRepository holderRepository;
    private final LeaseRepository waiterRepository;
    private final LeaseManager holder;
    private final LeaseManager waiter;
    private final ExecutorService waiters;
    private final AutoCloseable afterwards;
    private volatile CountDownLatch attemptFailed = new CountDownLatch(1);

    LeaseHandOff(
        String name,
        LeaseRepository holderRepository,
        LeaseRepository waiterRepository,
        ExecutorService waiters,
        AutoCloseable afterwards) {
      this.name = name;
      this.holderRepository = holderRepository;
      this.waiterRepository = waiterRepository;
      this.waiters = waiters;
      this.afterwards = afterwards;
      this.holder =
          LeaseManager.builder(holderRepository)
              .name("holder")
              .ttl(TTL)
              .heartbeat(HEARTBEAT)
              .build();
      this.waiter =
          LeaseManager.builder(waiterRepository)
              .name("waiter")
              .ttl(TTL)
              .heartbeat(HEARTBEAT)
              .listener(
                  new LeaseListener() {
                    @Override
                    public void heldByAnother(LeaseEvent.HeldByAnother event) {
                      attemptFailed.countDown();
                    }
                  })
              .build();
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public long once() throws Exception {
      CountDownLatch failed = new CountDownLatch(1);
      attemptFailed = failed;
      Lease held = holder.acquire(KEY);
      Future<Long> next =
          waiters.submit(
              () -> {
                Lease taken = waiter.acquire(KEY, MAX_WAIT);
                long at = System.nanoTime();
                taken.close();
                return at;
              });
      if (!failed.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException(name + ": the waiter never tried");
      }
      pauseBeforeRelease();
      held.close();
      long released = System.nanoTime();
      return next.get(20, TimeUnit.SECONDS) - released;
    }

    @Override
    public void close() throws Exception {
      try {
        holder.close();
        waiter.close();
        waiterRepository.close();
        holderRepository.close();
      } finally {
        afterwards.close();
      }
    }
  }

  /** Two Spring Integration lock registries on two pools of one {@code INT_LOCK} table. */
  private static final class SpringHandOff implements HandOff {
    private final JdbcServers server = JdbcServers.POSTGRESQL;
    private final String prefix = JdbcServers.freshTable("si") + "_";
    private final List<HikariDataSource> pools = new ArrayList<>();
    private final List<DefaultLockRepository> repositories = new ArrayList<>();
    private final JdbcLockRegistry holder;
    private final JdbcLockRegistry waiter;
    private final ExecutorService waiters;

    SpringHandOff(ExecutorService waiters) throws Exception {
      this.waiters = waiters;
      try (Connection connection = server.connect();
          Statement statement = connection.createStatement()) {
        statement.execute(
            SpringLockContender.lockTableDdl().replace("INT_", prefix.toUpperCase(Locale.ROOT)));
      }
      holder = registry("lease-bench-handoff-spring-holder");
      waiter = registry("lease-bench-handoff-spring-waiter");
    }

    private JdbcLockRegistry registry(String poolName) {
      HikariDataSource pool = server.pool(poolName);
      pools.add(pool);
      DefaultLockRepository repository = new DefaultLockRepository(pool);
      repository.setPrefix(prefix.toUpperCase(Locale.ROOT));
      repository.setTransactionManager(new DataSourceTransactionManager(pool));
      repository.afterPropertiesSet();
      repository.afterSingletonsInstantiated();
      repository.start();
      repositories.add(repository);
      return new JdbcLockRegistry(repository);
    }

    @Override
    public String name() {
      return "Spring JdbcLockRegistry tryLock (PostgreSQL)";
    }

    @Override
    public long once() throws Exception {
      Lock held = holder.obtain(KEY);
      held.lock();
      CountDownLatch waiting = new CountDownLatch(1);
      Future<Long> next =
          waiters.submit(
              () -> {
                Lock lock = waiter.obtain(KEY);
                waiting.countDown();
                if (!lock.tryLock(MAX_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                  throw new IllegalStateException("Spring's waiter did not get the lock");
                }
                long at = System.nanoTime();
                lock.unlock();
                return at;
              });
      if (!waiting.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("Spring's waiter never started");
      }
      pauseBeforeRelease();
      held.unlock();
      long released = System.nanoTime();
      return next.get(20, TimeUnit.SECONDS) - released;
    }

    @Override
    public void close() throws Exception {
      for (DefaultLockRepository repository : repositories) {
        repository.stop();
        repository.close();
      }
      pools.forEach(HikariDataSource::close);
      server.drop(prefix + "lock");
    }
  }
}
