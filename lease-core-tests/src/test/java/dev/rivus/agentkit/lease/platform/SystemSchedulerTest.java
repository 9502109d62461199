/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.platform.LeaseScheduler.Lane;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The system scheduler's listener lane, and the threads a user's factory makes. */
class SystemSchedulerTest {

  @Test
  void aBlockedListenerLaneHoldsABoundedQueueAndNeverRunsOnTheCaller() throws Exception {
    SystemScheduler scheduler = new SystemScheduler("test", null);
    CountDownLatch blocking = new CountDownLatch(1);
    CountDownLatch unblock = new CountDownLatch(1);
    scheduler.execute(
        Lane.LISTENER,
        () -> {
          blocking.countDown();
          awaitQuietly(unblock);
        });
    assertThat(blocking.await(10, TimeUnit.SECONDS)).isTrue();
    Thread caller = Thread.currentThread();
    AtomicInteger ran = new AtomicInteger();
    AtomicBoolean ranOnCaller = new AtomicBoolean();
    for (int i = 0; i < SystemScheduler.LISTENER_QUEUE + 100; i++) {
      scheduler.execute(
          Lane.LISTENER,
          () -> {
            ranOnCaller.compareAndSet(false, Thread.currentThread() == caller);
            ran.incrementAndGet();
          });
    }
    assertThat(ran).as("tasks run while the lane is blocked").hasValue(0);

    unblock.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> ran.get() >= SystemScheduler.LISTENER_QUEUE);
    scheduler.close();
    scheduler.execute(Lane.LISTENER, () -> ranOnCaller.set(true));

    assertThat(ranOnCaller).as("a listener task run on the caller's thread").isFalse();
    assertThat(ran)
        .as("tasks beyond the queue are dropped")
        .hasValue(SystemScheduler.LISTENER_QUEUE);
  }

  @Test
  void otherLanesStillRunOnTheCallerOnceClosedSoThatNoReleaseIsDropped() {
    SystemScheduler scheduler = new SystemScheduler("test", null);
    scheduler.close();
    AtomicBoolean ran = new AtomicBoolean();

    scheduler.execute(Lane.REPOSITORY, () -> ran.set(true));

    assertThat(ran).isTrue();
  }

  @Test
  void aThreadFactoryThatReturnsNoThreadOrAStartedOneIsAClearError() {
    SystemScheduler returnsNull = new SystemScheduler("test", task -> null);
    assertThatThrownBy(() -> returnsNull.execute(Lane.REPOSITORY, () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("threadFactory must return a new, unstarted thread");
    returnsNull.close();

    Thread started = new Thread(() -> {});
    started.start();
    SystemScheduler returnsStarted = new SystemScheduler("test", task -> started);
    assertThatThrownBy(() -> returnsStarted.schedule(Duration.ZERO, () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("threadFactory");
    returnsStarted.close();
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
