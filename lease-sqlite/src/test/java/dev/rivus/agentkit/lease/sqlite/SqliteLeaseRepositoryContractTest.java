/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.testkit.PrunableLeaseRepositoryContract;
import dev.rivus.agentkit.lease.testkit.StoreLossContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared repository contract, pruning and the loss of the store included, on a fresh SQLite
 * file per test. A key lock is lost as {@code rm leases.db*} would lose it: its key lock file
 * deleted.
 */
class SqliteLeaseRepositoryContractTest extends PrunableLeaseRepositoryContract
    implements StoreLossContract {

  @TempDir Path dir;

  private Path database() {
    return dir.resolve("leases.db");
  }

  @Override
  protected PrunableLeaseRepository createRepository() {
    return SqliteLeaseRepository.open(database());
  }

  @Override
  protected LeaseRepository openSecondInstance() {
    return SqliteLeaseRepository.open(database());
  }

  @Override
  protected boolean loseKeyLock(LeaseRepository.KeyLock keyLock) throws Exception {
    Files.delete(((SqliteLeaseRepository) repository()).keyLockFile());
    return true;
  }

  @Override
  public LeaseRepository storeUnderTest() {
    return repository();
  }

  @Override
  public void deleteStore() throws Exception {
    StoreFiles.deleteAll(database());
  }

  @Override
  public LeaseRepository openAnotherRepository() {
    return SqliteLeaseRepository.open(database());
  }
}
