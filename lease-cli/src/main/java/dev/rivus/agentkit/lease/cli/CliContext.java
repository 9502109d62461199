package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.platform.Platform;
import java.util.Map;

/**
 * What every {@code lease} command takes from its surroundings: the environment, the repositories
 * it can open and the platform (clocks, process facts). The real one reads the process; tests give
 * fakes.
 *
 * @param environment the process environment
 * @param repositories how to open the repositories named on the command line
 * @param platform clocks and process facts
 */
record CliContext(Map<String, String> environment, Repositories repositories, Platform platform) {

  static CliContext system() {
    return system(Platform.system());
  }

  static CliContext system(Platform platform) {
    return new CliContext(System.getenv(), new StandardRepositories(), platform);
  }
}
