/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.LeaseRepositoryContract;
import dev.rivus.agentkit.lease.testkit.StoreLossContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-file repository passes the repository contract, and notices a deleted directory. */
class FileLeaseRepositoryContractTest extends LeaseRepositoryContract implements StoreLossContract {

  @TempDir Path directory;

  @Override
  protected LeaseRepository createRepository() {
    return FileLeaseRepository.open(directory.resolve("leases"));
  }

  @Override
  protected LeaseRepository openSecondInstance() {
    return FileLeaseRepository.open(directory.resolve("leases"));
  }

  @Override
  public LeaseRepository storeUnderTest() {
    return repository();
  }

  /** As {@code rm -r leases} would. */
  @Override
  public void deleteStore() throws IOException {
    try (Stream<Path> files = Files.walk(directory.resolve("leases"))) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }

  @Override
  public LeaseRepository openAnotherRepository() {
    return FileLeaseRepository.open(directory.resolve("leases"));
  }
}
