/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** MariaDB: {@code mariadbd} as a child of this JVM, on an empty data directory. */
final class PrivateMariaDb extends PrivateServer {
  private final Path mariadbd;
  private @Nullable Process process;

  private PrivateMariaDb(Path directory, int port, Path mariadbd) {
    super(directory, port);
    this.mariadbd = mariadbd;
  }

  static PrivateMariaDb create() throws IOException {
    Path mariadbd = mariadbd();
    if (mariadbd == null) {
      throw new IllegalStateException("mariadbd not found");
    }
    // No mariadb-install-db (about 3 s): mariadbd sets up InnoDB in an empty data directory
    // itself, and the grant tables it would create are skipped (--skip-grant-tables).
    Path directory = Files.createTempDirectory("lease-private-mariadb");
    Files.createDirectory(directory.resolve("data"));
    return new PrivateMariaDb(directory, freePort(), mariadbd);
  }

  static @Nullable Path mariadbd() {
    for (String candidate :
        List.of("/usr/sbin/mariadbd", "/usr/bin/mariadbd", "/usr/sbin/mysqld")) {
      Path path = Path.of(candidate);
      if (Files.isExecutable(path)) {
        return path;
      }
    }
    return null;
  }

  @Override
  public String url() {
    return "jdbc:mariadb://127.0.0.1:" + port() + "/test?user=root";
  }

  @Override
  public Kind kind() {
    return Kind.MARIADB;
  }

  @Override
  String adminUrl() {
    return "jdbc:mariadb://127.0.0.1:"
        + port()
        + "/?user=root&connectTimeout=5000&socketTimeout=10000";
  }

  @Override
  void startProcess() throws IOException {
    process =
        new ProcessBuilder(
                mariadbd.toString(),
                "--no-defaults",
                "--datadir=" + directory().resolve("data"),
                "--port=" + port(),
                "--bind-address=127.0.0.1",
                "--socket=" + directory().resolve("mariadb.sock"),
                "--pid-file=" + directory().resolve("mariadb.pid"),
                "--user=" + System.getProperty("user.name"),
                "--skip-grant-tables",
                "--skip-name-resolve",
                "--skip-log-bin",
                "--innodb-buffer-pool-size=16M",
                "--innodb-log-file-size=8M",
                "--innodb-flush-log-at-trx-commit=2",
                "--innodb-doublewrite=0",
                "--log-error=" + log())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
            .start();
  }

  @Override
  void stopProcess() throws InterruptedException {
    Process started = process;
    if (started == null) {
      return;
    }
    started.destroy(); // SIGTERM: a normal shutdown, every session ended
    if (!started.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      started.destroyForcibly().waitFor();
    }
    process = null;
  }

  @Override
  void killProcess() {
    Process started = process;
    if (started != null) {
      started.destroyForcibly();
      process = null;
    }
  }

  @Override
  boolean isProcessAlive() {
    Process started = process;
    return started != null && started.isAlive();
  }
}
