/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lease status} and {@code lease list} read a store they cannot write to (a read-only file
 * system, another user's files): they refused with "the lease repository writes to it". The store
 * is made read-only with {@code chattr +i} on its directory and files, which holds for root too
 * (the tests run as root, which ignores permission bits); skipped where that is unavailable.
 */
class ReadOnlyStoreProcessTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;
  private final List<Path> immutable = new ArrayList<>();

  @AfterEach
  void makeWritableAgain() {
    for (Path path : immutable) {
      chattr("-i", path);
    }
  }

  @Test
  void statusAndListReadADatabaseInAReadOnlyDirectory() throws Exception {
    Path db = Files.createDirectory(temp.resolve("store")).resolve("leases.db");
    String token = written("--db", db.toString());
    makeReadOnly(db.getParent());

    assertRead(token, "--db", db.toString());
    try (var files = Files.list(db.getParent())) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("nothing was written next to the database")
          .containsExactlyInAnyOrder("leases.db", "leases.db.fence");
    }
  }

  @Test
  void statusAndListReadADirectoryOfRecordsThatIsReadOnly() throws Exception {
    Path dir = temp.resolve("records");
    String token = written("--dir", dir.toString());
    makeReadOnly(dir);

    assertRead(token, "--dir", dir.toString());
  }

  /** Runs one holder that leaves a released record; returns its token. */
  private static String written(String option, String store) {
    LeaseTool run =
        LeaseTool.run("run", option, store, "k", "--", "sh", "-c", "echo token=$LEASE_TOKEN");
    assertThat(run.awaitExit()).as("%s", run).isZero();
    return run.stdoutLines().stream()
        .filter(line -> line.startsWith("token="))
        .findFirst()
        .orElseThrow()
        .substring("token=".length());
  }

  private static void assertRead(String token, String option, String store) throws IOException {
    LeaseTool status = LeaseTool.run("status", option, store, "k", "--json");
    assertThat(status.awaitExit()).as("%s", status).isZero();
    JsonNode record = JSON.readTree(status.stdout());
    assertThat(record.get("generation").asText()).isEqualTo(token);
    assertThat(record.get("state").asText()).isEqualTo("released");

    LeaseTool list = LeaseTool.run("list", option, store, "--json");
    assertThat(list.awaitExit()).as("%s", list).isZero();
    assertThat(JSON.readTree(list.stdout()))
        .singleElement()
        .satisfies(listed -> assertThat(listed.get("key").asText()).isEqualTo("k"));
  }

  /** The directory and every file in it immutable: nothing can be created, changed or removed. */
  private void makeReadOnly(Path directory) throws IOException {
    try (var files = Files.list(directory)) {
      for (Path file : files.toList()) {
        assumeTrue(chattr("+i", file), "chattr +i is unavailable here (" + file + ")");
        immutable.add(file);
      }
    }
    assumeTrue(chattr("+i", directory), "chattr +i is unavailable here (" + directory + ")");
    immutable.add(directory);
    Path probe = directory.resolve("probe-" + UUID.randomUUID());
    try {
      Files.createFile(probe);
      Files.delete(probe);
      assumeTrue(false, "an immutable directory still takes new files here");
    } catch (IOException expected) {
      // read-only, as wanted
    }
  }

  private static boolean chattr(String flag, Path path) {
    try {
      Process process =
          new ProcessBuilder("chattr", flag, path.toString()).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      return process.waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
