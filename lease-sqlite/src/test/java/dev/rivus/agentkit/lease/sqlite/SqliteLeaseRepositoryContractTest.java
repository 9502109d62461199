package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.testkit.LeaseRepositoryContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shared repository contract, on a fresh SQLite file per test. */
class SqliteLeaseRepositoryContractTest extends LeaseRepositoryContract {

  @TempDir Path dir;

  @Override
  protected LeaseRepository createRepository() {
    return SqliteLeaseRepository.open(dir.resolve("leases.db"));
  }
}
