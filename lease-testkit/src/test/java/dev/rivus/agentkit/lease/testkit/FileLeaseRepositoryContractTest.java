package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-file repository passes the repository contract. */
class FileLeaseRepositoryContractTest extends LeaseRepositoryContract {

  @TempDir Path directory;

  @Override
  protected LeaseRepository createRepository() {
    return FileLeaseRepository.open(directory.resolve("leases"));
  }
}
