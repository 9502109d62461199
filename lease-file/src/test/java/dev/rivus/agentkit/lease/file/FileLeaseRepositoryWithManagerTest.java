/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.testkit.FakePlatform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file repository under the real lease manager: the adapter fits the port as the manager uses
 * it.
 */
class FileLeaseRepositoryWithManagerTest {

  @TempDir Path directory;

  @Test
  void generationsRiseAcrossReleasesAndRepositoryInstances() throws Exception {
    long token;
    try (LeaseManager first = LeaseManager.builder(FileLeaseRepository.open(directory)).build()) {
      Lease lease = first.acquire("task:42");
      token = lease.runFenced(keyLock -> keyLock.generation());
      lease.close();
      assertThat(token).isEqualTo(lease.generation());
    }

    long next;
    try (LeaseManager second = LeaseManager.builder(FileLeaseRepository.open(directory)).build()) {
      Lease lease = second.acquire("task:42");
      next = lease.generation();
      assertThat(next).isGreaterThan(token);
      lease.close();
    }

    LeaseSnapshot tombstone = FileLeaseRepository.open(directory).load("task:42").orElseThrow();
    assertThat(tombstone.state()).isEqualTo(LeaseState.RELEASED);
    assertThat(tombstone.generation()).isEqualTo(next);
  }

  @Test
  void aSecondManagerOnTheSameDirectoryIsRefusedWhileTheFirstHolds() {
    try (LeaseManager holder = LeaseManager.builder(FileLeaseRepository.open(directory)).build();
        LeaseManager rival = LeaseManager.builder(FileLeaseRepository.open(directory)).build()) {
      Lease lease = holder.acquire("task:7");

      assertThatThrownBy(() -> rival.acquire("task:7")).isInstanceOf(LeaseHeld.class);
      lease.close();
    }
  }

  @Test
  void aDirectoryReachedThroughASymlinkIsTheSameStoreWithOneKeyLock() throws Exception {
    Path real = Files.createDirectories(directory.resolve("real"));
    Path link = Files.createSymbolicLink(directory.resolve("link"), real);
    FileLeaseRepository byLink = FileLeaseRepository.open(link);
    FileLeaseRepository byName = FileLeaseRepository.open(real);

    assertThat(byLink.directory()).isEqualTo(byName.directory());
    try (var keyLock = byLink.lockKey("task:7")) {
      CompletableFuture<Void> other =
          CompletableFuture.runAsync(
              () -> {
                try (var second = byName.lockKey("task:7")) {
                  // got it only after the first was released
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      assertThatThrownBy(() -> other.get(300, TimeUnit.MILLISECONDS))
          .as("the key lock taken through the other name")
          .isInstanceOf(TimeoutException.class);
      keyLock.close();
      other.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aHolderWhoseRecordFileWasDeletedLosesItsLeaseAndTheNextHolderGetsAHigherToken() {
    FileLeaseRepository repository = FileLeaseRepository.open(directory);
    FakePlatform holderClock = new FakePlatform();
    FakePlatform nextClock = new FakePlatform();
    Duration ttl = Duration.ofSeconds(10);
    Duration heartbeat = Duration.ofSeconds(2);
    try (LeaseManager holder = holderClock.newManager(repository, ttl, heartbeat);
        LeaseManager next = nextClock.newManager(repository, ttl, heartbeat)) {
      Lease lease = holder.acquire("task:7");
      for (Path file : jsonFiles(repository.directory())) {
        deleteQuietly(file); // rm *.json while the holder runs
      }
      nextClock.advance(Duration.ofSeconds(1));

      try (Lease successor = next.acquire("task:7")) {
        assertThat(successor.generation()).isGreaterThan(lease.generation());
        holderClock.advance(heartbeat);
        assertThat(lease.isHeld()).isFalse();
        assertThat(lease.lost().toCompletableFuture().join().reason())
            .isEqualTo(LeaseLost.Reason.TAKEN_OVER);
      }
    }
  }

  private static List<Path> jsonFiles(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.toString().endsWith(".json")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.delete(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
