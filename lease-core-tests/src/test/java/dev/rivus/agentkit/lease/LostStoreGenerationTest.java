/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.memory.MemoryLeaseRepository;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every acquisition's generation is {@code max(stored generation + 1, wall clock in microseconds)}
 * (SPEC 1), so a store that loses writes (restored from an old copy, renamed without its log,
 * replaced) still hands out tokens above every token given before; and a wall clock behind the
 * stored generation is said in a warning.
 */
class LostStoreGenerationTest {

  private static final Duration TTL = Duration.ofSeconds(10);
  private static final Duration HEARTBEAT = Duration.ofSeconds(2);

  private final Logger logger = Logger.getLogger("dev.rivus.agentkit.lease");
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @BeforeEach
  void captureWarnings() {
    logger.addHandler(capture);
  }

  @AfterEach
  void stopCapturing() {
    logger.removeHandler(capture);
  }

  @Test
  void anAcquisitionTakesTheWallClockWhenItIsAboveTheStoredGenerationPlusOne() {
    Instant now = Instant.parse("2026-06-01T00:00:00Z");
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, now);
    LeaseSnapshot old = storedRecord(micros - 5_000_000); // given 5 s ago
    LeaseSnapshot ahead = storedRecord(micros + 5_000_000); // from a clock 5 s ahead

    assertThat(old.acquisition(Samples.holder("next"), TTL, now).snapshot().generation())
        .isEqualTo(micros);
    assertThat(ahead.acquisition(Samples.holder("next"), TTL, now).snapshot().generation())
        .isEqualTo(micros + 5_000_001);
  }

  /**
   * The store is replaced by a copy taken after the key's first release: without the wall clock in
   * every generation, the next acquisition would get the second token again.
   */
  @Test
  void aStoreRestoredFromAnOldCopyGivesTokensAboveEveryTokenGivenBefore() {
    FakePlatform platform = Samples.platformOf(100);
    MemoryLeaseRepository live = new MemoryLeaseRepository(platform.wallClock());
    MemoryLeaseRepository copy = new MemoryLeaseRepository(platform.wallClock());
    Backup store = new Backup(live, copy);
    List<Long> given = new ArrayList<>();
    try (LeaseManager manager = platform.newManager(store, TTL, HEARTBEAT)) {
      for (int i = 0; i < 5; i++) {
        try (Lease lease = manager.acquire("report")) {
          given.add(lease.generation());
        }
        if (i == 0) {
          store.stopCopying(); // the backup is taken here
        }
        platform.advance(Duration.ofMillis(1));
      }
    }

    // The operator restores the backup: the processes now open the copy.
    try (LeaseManager restarted = platform.newManager(copy, TTL, HEARTBEAT);
        Lease lease = restarted.acquire("report")) {
      assertThat(copy.load("report").orElseThrow().generation())
          .as("the copy's record is the acquisition just made")
          .isEqualTo(lease.generation());
      assertThat(lease.generation()).isGreaterThan(given.get(given.size() - 1));
    }
    assertThat(warnings).noneMatch(message -> message.contains("behind stored generation"));
  }

  /** A stored generation ahead of this wall clock cannot take it: say so, once, not per lease. */
  @Test
  void aWallClockBehindTheStoredGenerationIsSaidOnce() {
    FakePlatform platform = Samples.platformOf(100);
    MemoryLeaseRepository store = new MemoryLeaseRepository(platform.wallClock());
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, platform.now());
    long ahead = micros + Duration.ofHours(1).toNanos() / 1000;
    for (String key : List.of("a", "b")) {
      LeaseSnapshot held = storedRecord(key, ahead);
      store.save(new LeaseWrite(LeaseWrite.Intent.ACQUIRE, held, 0));
      store.save(held.release(platform.now()));
    }

    try (LeaseManager manager = platform.newManager(store, TTL, HEARTBEAT)) {
      try (Lease a = manager.acquire("a");
          Lease b = manager.acquire("b")) {
        assertThat(a.generation()).isEqualTo(ahead + 1);
        assertThat(b.generation()).isEqualTo(ahead + 1);
      }
    }

    await()
        .untilAsserted(
            () ->
                assertThat(warnings)
                    .filteredOn(message -> message.contains("behind stored generation"))
                    .singleElement()
                    .asString()
                    .contains("lease 'a'", "3600.000 s behind", "token check still refuses"));
  }

  private static LeaseSnapshot storedRecord(long generation) {
    return storedRecord("report", generation);
  }

  /** A held record of {@code key} with {@code generation}, saved as if by another process. */
  private static LeaseSnapshot storedRecord(String key, long generation) {
    return new LeaseSnapshot(
        key,
        generation,
        1,
        LeaseState.HELD,
        Samples.holder("earlier"),
        TTL,
        Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** A store whose writes also go to its backup, until the backup is taken. */
  private static final class Backup extends ForwardingLeaseRepository {
    private final LeaseRepository copy;
    private volatile boolean copying = true;

    Backup(LeaseRepository live, LeaseRepository copy) {
      super(live);
      this.copy = copy;
    }

    void stopCopying() {
      copying = false;
    }

    @Override
    public void save(LeaseWrite write) {
      super.save(write);
      if (copying) {
        copy.save(write);
      }
    }
  }
}
