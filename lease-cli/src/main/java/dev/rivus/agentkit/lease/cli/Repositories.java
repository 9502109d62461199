package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.nio.file.Path;

/** Opens the lease repositories the command line can name. Tests give their own. */
interface Repositories {

  /**
   * Opens (creating if needed) the SQLite lease database in {@code file}.
   *
   * @param file the database file; its directory exists
   * @return the open repository; the caller closes it
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if it cannot be opened or is not a
   *     lease database
   */
  LeaseRepository openDatabase(Path file);

  /**
   * Opens (creating if needed) a directory of JSON lease files.
   *
   * @param directory the directory
   * @return the open repository; the caller closes it
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if it cannot be created or opened
   */
  LeaseRepository openDirectory(Path directory);
}
