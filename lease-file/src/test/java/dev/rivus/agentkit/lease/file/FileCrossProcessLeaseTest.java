/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.testkit.CrossProcessLeaseContract;
import dev.rivus.agentkit.lease.testkit.RepositoryFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-file repository passes the cross-process contract, with real child JVMs. */
class FileCrossProcessLeaseTest extends CrossProcessLeaseContract {

  @TempDir Path directory;

  @Override
  protected Class<? extends RepositoryFactory> repositoryFactory() {
    return FileRepositoryFactory.class;
  }

  @Override
  protected String newStorageSpec() {
    return directory.resolve("leases").toString();
  }
}
