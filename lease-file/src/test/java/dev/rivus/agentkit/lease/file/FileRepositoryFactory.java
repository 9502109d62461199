/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.nio.file.Path;

/** Opens a {@link FileLeaseRepository}; the spec is the path of its directory. */
public final class FileRepositoryFactory implements RepositoryFactory {

  /** Instantiated by name in child JVMs. */
  public FileRepositoryFactory() {}

  @Override
  public LeaseRepository open(String spec) {
    return FileLeaseRepository.open(Path.of(spec));
  }
}
