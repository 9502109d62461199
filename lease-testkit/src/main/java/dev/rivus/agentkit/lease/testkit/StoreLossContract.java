/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.StoreLost;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The contract of a repository whose store can be lost under it: a store deleted or replaced while
 * holders run makes them lose their leases at once, never hold on to a ghost, and a store created
 * anew where the old one was hands out higher tokens than the old one did.
 *
 * <p>An adapter's contract test that extends {@link LeaseRepositoryContract} also implements this
 * interface, with the operator's mistakes its storage allows ({@code rm} of a database's files, of
 * a directory). Not for stores that cannot be lost under a running process (memory).
 */
public interface StoreLossContract {

  /** The TTL of the managers in these tests. */
  Duration TTL = Duration.ofSeconds(10);

  /** The heartbeat of the managers in these tests. */
  Duration HEARTBEAT = Duration.ofSeconds(2);

  /**
   * Returns the repository under test: {@code repository()} of the contract.
   *
   * @return the repository created before this test
   */
  LeaseRepository storeUnderTest();

  /**
   * Deletes the store under the repository as an operator would: every file of it ({@code rm
   * leases.db*}, {@code rm -r dir}), or its table.
   *
   * @throws Exception if it cannot be deleted
   */
  void deleteStore() throws Exception;

  /**
   * Opens another repository on the same storage, as another process would after the store was
   * deleted: it creates a new, empty store where the old one was.
   *
   * @return the new repository; the test closes it
   * @throws Exception if it cannot be opened
   */
  LeaseRepository openAnotherRepository() throws Exception;

  /**
   * A holder whose store was deleted loses its lease at its next renewal, with reason {@code
   * STORE_LOST}, and the repository reports {@link StoreLost} from then on.
   *
   * @throws Exception if the storage cannot be changed
   */
  @Test
  default void aHolderWhoseStoreWasDeletedLosesItsLeaseAtItsNextRenewal() throws Exception {
    FakePlatform platform = new FakePlatform();
    try (LeaseManager leases = platform.newManager(storeUnderTest(), TTL, HEARTBEAT)) {
      Lease lease = leases.acquire("ghost");

      deleteStore();
      platform.advance(HEARTBEAT);

      assertThat(lease.isHeld()).as("the lease is held after its store was deleted").isFalse();
      assertThat(lease.lost().toCompletableFuture().join().reason())
          .isEqualTo(LeaseLost.Reason.STORE_LOST);
      assertThatThrownBy(() -> storeUnderTest().load("ghost")).isInstanceOf(StoreLost.class);
    }
  }

  /**
   * A store deleted and created anew by another process is not adopted by the old repository: its
   * holder's fenced work is refused and its lease lost at once, and the new store's first
   * acquisition of the key gets a higher generation than the old store handed out.
   *
   * @throws Exception if the storage cannot be changed
   */
  @Test
  default void aStoreReplacedUnderAHolderIsNotAdoptedAndTokensStillRise() throws Exception {
    FakePlatform oldPlatform = new FakePlatform();
    FakePlatform newPlatform = new FakePlatform();
    try (LeaseManager oldLeases = oldPlatform.newManager(storeUnderTest(), TTL, HEARTBEAT)) {
      for (int i = 0; i < 5; i++) {
        oldLeases.acquire("replaced").close();
      }
      Lease old = oldLeases.acquire("replaced");

      deleteStore();
      newPlatform.advance(Duration.ofSeconds(1)); // time passes before the new store is made
      try (LeaseRepository replacement = openAnotherRepository();
          LeaseManager newLeases = newPlatform.newManager(replacement, TTL, HEARTBEAT);
          Lease successor = newLeases.acquire("replaced")) {

        assertThat(successor.generation())
            .as("the first generation of the new store")
            .isGreaterThan(old.generation());
        assertThatThrownBy(() -> old.runFenced(token -> token.generation()))
            .as("fenced work of the old holder")
            .isInstanceOfSatisfying(
                LeaseLost.class,
                lost -> assertThat(lost.reason()).isEqualTo(LeaseLost.Reason.STORE_LOST));
        assertThat(old.isHeld()).isFalse();
        assertThat(replacement.load("replaced").orElseThrow().holder())
            .as("the new store's record")
            .isEqualTo(successor.holder());
      }
    }
  }
}
