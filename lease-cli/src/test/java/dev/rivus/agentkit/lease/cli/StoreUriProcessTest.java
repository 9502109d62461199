/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --store URI} as real processes: {@code sqlite:PATH} and {@code dir:PATH} are the stores
 * that {@code --db} and {@code --dir} name, found through their providers on the tool's class path.
 * The database's {@code jdbc:} URI is {@link JdbcProcessTest}'s.
 */
class StoreUriProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  @ParameterizedTest(name = "{0}")
  @CsvSource({"sqlite:, --db, nested/leases.db", "dir:, --dir, nested/leases"})
  void aStoreUriNamesTheStoreItsOptionNames(String scheme, String option, String name)
      throws Exception {
    Path store = temp.resolve(name);
    Files.createDirectories(store.getParent()); // a named store's directory is never created
    String uri = scheme + store;

    LeaseTool run =
        LeaseTool.run("run", "--store", uri, "job", "--", "sh", "-c", "echo $LEASE_TOKEN");
    assertThat(run.awaitExit()).as("%s", run).isZero();
    long token = Long.parseLong(run.awaitStdout("^(\\d+)$"));

    LeaseTool status = LeaseTool.run("status", option, store.toString(), "job", "--json");
    assertThat(status.awaitExit()).as("%s", status).isZero();
    assertThat(JSON.readTree(status.stdout()).get("generation").asLong()).isEqualTo(token);
    LeaseTool list = LeaseTool.run("list", "--store=" + uri, "--json");
    assertThat(list.awaitExit()).as("%s", list).isZero();
    assertThat(JSON.readTree(list.stdout()).get(0).get("generation").asLong()).isEqualTo(token);
    try (LeaseRepository repository =
        scheme.equals("sqlite:")
            ? SqliteLeaseRepository.open(store)
            : FileLeaseRepository.open(store)) {
      assertThat(repository.load("job").orElseThrow().generation()).isEqualTo(token);
    }
  }

  @Test
  void aStoreOfNoKnownSchemeIsAUsageErrorThatNamesTheKnownOnes() {
    LeaseTool list = LeaseTool.run("list", "--store", "redis://u:hunter2@cache:6379/0");

    assertThat(list.awaitExit()).isEqualTo(ExitCodes.USAGE);
    assertThat(list.stderr())
        .isEqualTo(
            "lease list: no lease store provider for scheme 'redis' (known: dir, jdbc, sqlite):"
                + " is its jar on the class path?");
  }
}
