package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import java.nio.file.Path;

/** The repositories of the product: SQLite for {@code --db}, JSON files for {@code --dir}. */
final class StandardRepositories implements Repositories {

  @Override
  public LeaseRepository openDatabase(Path file) {
    throw new CliFailure(
        ExitCodes.USAGE, "SQLite support is not built into this lease yet; use --dir DIR");
  }

  @Override
  public LeaseRepository openDirectory(Path directory) {
    return FileLeaseRepository.open(directory);
  }
}
