package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/** The repositories of the product: SQLite for {@code --db}, JSON files for {@code --dir}. */
final class StandardRepositories implements Repositories {

  @Override
  public LeaseRepository openDatabase(Path file, StoreUse use) {
    if (!use.create() && !Files.exists(file)) {
      // Checked here too, so that a mistyped path in a missing directory is named as such.
      throw new LeaseRepositoryFailure(null, noStore("database", file), null);
    }
    return SqliteLeaseRepository.open(
        file,
        SqliteOptions.builder().busyWait(use.busyWait()).createIfMissing(use.create()).build());
  }

  @Override
  public LeaseRepository openDirectory(Path directory, StoreUse use) {
    if (!use.create() && !Files.isDirectory(directory)) {
      throw new LeaseRepositoryFailure(
          null,
          Files.exists(directory)
              ? directory + " is not a directory, so not a lease directory"
              : noStore("directory", directory),
          null);
    }
    return FileLeaseRepository.open(directory);
  }

  private static String noStore(String what, Path path) {
    return "no lease "
        + what
        + " at "
        + path
        + "; this command only reads a store and never creates one (check the path, --db, --dir"
        + " or $LEASE_DB)";
  }
}
