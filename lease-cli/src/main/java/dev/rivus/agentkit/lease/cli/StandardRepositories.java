package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Path;

/** The repositories of the product: SQLite for {@code --db}, JSON files for {@code --dir}. */
final class StandardRepositories implements Repositories {

  @Override
  public LeaseRepository openDatabase(Path file) {
    return SqliteLeaseRepository.open(file);
  }

  @Override
  public LeaseRepository openDirectory(Path directory) {
    return FileLeaseRepository.open(directory);
  }
}
