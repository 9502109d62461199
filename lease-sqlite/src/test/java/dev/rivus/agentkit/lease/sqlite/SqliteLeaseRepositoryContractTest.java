package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.testkit.PrunableLeaseRepositoryContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shared repository contract, pruning included, on a fresh SQLite file per test. */
class SqliteLeaseRepositoryContractTest extends PrunableLeaseRepositoryContract {

  @TempDir Path dir;

  @Override
  protected PrunableLeaseRepository createRepository() {
    return SqliteLeaseRepository.open(dir.resolve("leases.db"));
  }
}
