/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A log write that blocks for ever (a full pipe, a terminal stopped with Ctrl-S) must not freeze a
 * manager: its other leases keep renewing, and a lease that can no longer be renewed still expires
 * on time. Real threads and real time, with a log handler that never returns.
 */
class BlockedLogTest {

  private static final Duration TTL = Duration.ofSeconds(1);
  private static final Duration HEARTBEAT = Duration.ofMillis(100);

  private final Logger logger = Logger.getLogger("dev.rivus.agentkit.lease");
  private final CountDownLatch unblock = new CountDownLatch(1);
  private final CountDownLatch blocked = new CountDownLatch(1);
  private final Handler blocking =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          blocked.countDown();
          try {
            unblock.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private boolean usedParentHandlers;

  @BeforeEach
  void blockTheLog() {
    usedParentHandlers = logger.getUseParentHandlers();
    logger.setUseParentHandlers(false);
    logger.addHandler(blocking);
  }

  @AfterEach
  void unblockTheLog() {
    unblock.countDown();
    logger.removeHandler(blocking);
    logger.setUseParentHandlers(usedParentHandlers);
  }

  @Test
  void aBlockedLogNeitherStopsRenewalsNorKeepsALeaseAliveThatCannotBeRenewed() throws Exception {
    MemoryLeaseRepository store = new MemoryLeaseRepository();
    FlakyRepository repository = new FlakyRepository(store);
    try (LeaseManager manager =
        LeaseManager.builder(repository).ttl(TTL).heartbeat(HEARTBEAT).build()) {
      Lease taken = manager.acquire("taken");
      Lease other = manager.acquire("other");
      LeaseSnapshot mine = store.load("taken").orElseThrow();
      HolderIdentity thief = new HolderIdentity(Samples.sibling(300), "thief-1");

      store.save(mine.acquisition(thief, TTL, mine.updatedAt()));
      await().atMost(Duration.ofSeconds(10)).until(() -> blocked.getCount() == 0);

      assertThat(taken.isHeld()).as("the lease taken over is held").isFalse();
      long revision = store.load("other").orElseThrow().revision();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> store.load("other").orElseThrow().revision() >= revision + 3);
      assertThat(other.isHeld()).as("the other lease, renewing while the log blocks").isTrue();

      repository.startFailing();
      await().atMost(Duration.ofSeconds(10)).until(() -> !other.isHeld());
      assertThat(blocked.getCount()).as("the log is still blocked").isZero();
      assertThat(unblock.getCount()).isOne();
      repository.recover();
    }
  }
}
