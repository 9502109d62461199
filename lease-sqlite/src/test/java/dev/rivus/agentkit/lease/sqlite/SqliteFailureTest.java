/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every way a database file can be unusable ends in a LeaseRepositoryFailure that says which. */
class SqliteFailureTest {

  @TempDir Path dir;

  @Test
  void missingDirectoryIsNamed() {
    Path missing = dir.resolve("no-such-dir").resolve("leases.db");

    assertThatThrownBy(() -> SqliteLeaseRepository.open(missing))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(missing.getParent().toString())
        .hasMessageContaining("does not exist");
  }

  @Test
  void fileThatIsNotAnSqliteDatabaseIsRefused() throws Exception {
    Path text = dir.resolve("notes.db");
    Files.writeString(text, "these are my notes, not a database\n".repeat(200));

    assertThatThrownBy(() -> SqliteLeaseRepository.open(text))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(text.toString())
        .hasMessageContaining("not an SQLite database");
  }

  @Test
  void anotherApplicationsDatabaseIsRefusedAndLeftUntouched() throws Exception {
    Path foreign = dir.resolve("app.db");
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + foreign);
        Statement statement = raw.createStatement()) {
      statement.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
    }
    byte[] before = Files.readAllBytes(foreign);

    assertThatThrownBy(() -> SqliteLeaseRepository.open(foreign))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("is not a lease database");
    assertThat(Files.readAllBytes(foreign)).as("the foreign file's bytes").isEqualTo(before);
    assertThat(Files.exists(dir.resolve("app.db-wal"))).as("a WAL file was made").isFalse();
  }

  @Test
  void withoutCreateIfMissingAMissingDatabaseIsRefusedAndNothingIsCreated() throws Exception {
    Path db = dir.resolve("mistyped.db");
    SqliteOptions readOnly = SqliteOptions.builder().createIfMissing(false).build();

    assertThatThrownBy(() -> SqliteLeaseRepository.open(db, readOnly))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("no lease database at ")
        .hasMessageContaining("mistyped.db");
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      assertThat(files).as("files left in the directory").isEmpty();
    }
    assertThatThrownBy(() -> SqliteLeaseRepository.open(dir.resolve("no-dir/leases.db"), readOnly))
        .as("in a missing directory, still named a missing database")
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("no lease database at ");

    SqliteLeaseRepository.open(db).close();
    SqliteLeaseRepository.open(db, readOnly).close(); // an existing one opens as always
  }

  @Test
  void aDatabaseOfThisVersionWithoutItsHolderTableIsRefusedAsDamaged() throws Exception {
    Path db = dir.resolve("leases.db");
    SqliteLeaseRepository.open(db).close();
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement statement = raw.createStatement()) {
      statement.execute("DROP TABLE lease_holder");
    }

    assertThatThrownBy(() -> SqliteLeaseRepository.open(db))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("lacks its table lease_holder");
  }

  @Test
  void newerSchemaVersionIsRefused() throws Exception {
    Path db = dir.resolve("leases.db");
    SqliteLeaseRepository.open(db).close();
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement statement = raw.createStatement()) {
      statement.execute("UPDATE lease_meta SET value = 4 WHERE name = 'schema_version'");
      statement.execute("PRAGMA user_version = 4");
    }

    assertThatThrownBy(() -> SqliteLeaseRepository.open(db))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining("schema version 4")
        .hasMessageContaining("newer than this release");
  }

  @Test
  void readOnlyFileIsRefusedWithTheReason() throws Exception {
    Path db = dir.resolve("leases.db");
    SqliteLeaseRepository.open(db).close();
    ReadOnly readOnly = ReadOnly.make(db);
    try {
      assertThatThrownBy(() -> SqliteLeaseRepository.open(db))
          .isInstanceOf(LeaseRepositoryFailure.class)
          .hasMessageContaining(db.toString())
          .hasMessageContaining("read-only");
    } finally {
      readOnly.undo();
    }
  }

  @Test
  void corruptDatabaseIsReportedAsCorrupt() throws Exception {
    Path db = dir.resolve("leases.db");
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      for (int i = 0; i < 200; i++) {
        String key = "key-" + i + "-" + "x".repeat(200);
        repository.save(Samples.firstWrite(key, "h"));
      }
    } // the last connection checkpoints the WAL into the file
    try (RandomAccessFile file = new RandomAccessFile(db.toFile(), "rw")) {
      byte[] garbage = "garbage!".repeat(512).getBytes(StandardCharsets.US_ASCII);
      for (long page = 1; page * 4096 < file.length(); page++) {
        file.seek(page * 4096);
        file.write(garbage, 0, 4096);
      }
    }

    LeaseRepositoryFailure failure =
        catchThrowableOfType(
            LeaseRepositoryFailure.class,
            () -> {
              try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
                repository.load("key-7-" + "x".repeat(200));
              }
            });

    assertThat(failure).as("failure on a corrupt database").isNotNull();
    assertThat(failure.getMessage()).contains(db.toString()).contains("corrupt");
  }

  @Test
  void lockedDatabaseFailsTheSaveAfterTheBusyWaitSayingHowLongAndHowOften() throws Exception {
    Path db = dir.resolve("leases.db");
    Duration busyWait = Duration.ofMillis(300);
    try (SqliteLeaseRepository repository =
            SqliteLeaseRepository.open(db, SqliteOptions.builder().busyWait(busyWait).build());
        Connection blocker = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement statement = blocker.createStatement()) {
      LeaseSnapshot first = Samples.first("k", "h");
      repository.save(Samples.firstWrite("k", "h"));
      statement.execute("BEGIN IMMEDIATE"); // another connection holds the write lock

      long start = System.nanoTime();
      LeaseRepositoryFailure failure =
          catchThrowableOfType(
              LeaseRepositoryFailure.class, () -> repository.save(first.renewal(Samples.TIME)));
      long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(failure).as("failure of a save on a locked database").isNotNull();
      assertThat(failure.getMessage())
          .contains(db.toString())
          .contains("attempt(s)")
          .contains("busy wait budget PT0.3S");
      assertThat(failure.key()).hasValue("k");
      assertThat(waitedMillis).as("time spent").isBetween(300L, 300L + 2_000L);
      // Readers are not blocked by a writer in WAL mode.
      assertThat(repository.load("k")).hasValue(first);

      statement.execute("ROLLBACK");
      repository.save(first.renewal(Samples.TIME));
      assertThat(repository.load("k").orElseThrow().revision()).isEqualTo(2);
    }
  }

  @Test
  void saveWaitingOnALockedDatabaseIsCutShortByAnInterruptWhichStaysSet() throws Exception {
    Path db = dir.resolve("leases.db");
    try (SqliteLeaseRepository repository =
            SqliteLeaseRepository.open(
                db, SqliteOptions.builder().busyWait(Duration.ofMinutes(5)).build());
        Connection blocker = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement statement = blocker.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<String> outcome = new CompletableFuture<>();
      Thread saver =
          new Thread(
              () -> {
                started.countDown();
                try {
                  repository.save(Samples.firstWrite("k", "h"));
                  outcome.complete("saved");
                } catch (LeaseRepositoryFailure e) {
                  outcome.complete(
                      e.getMessage() + " interrupted=" + Thread.currentThread().isInterrupted());
                }
              });
      saver.start();
      started.await();

      saver.interrupt();

      String result = outcome.get(30, TimeUnit.SECONDS);
      assertThat(result).contains("interrupted while waiting").endsWith("interrupted=true");
      statement.execute("ROLLBACK");
    }
  }

  @Test
  void fullDiskIsReportedAsFull() throws Exception {
    try (SmallFileSystem small = SmallFileSystem.mount(dir.resolve("small"), "512k")) {
      Path db = small.path().resolve("leases.db");
      try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
        small.fill();
        LeaseRepositoryFailure failure = null;
        for (int i = 0; i < 10_000 && failure == null; i++) {
          String key = "key-" + i + "-" + "x".repeat(900);
          try {
            repository.save(Samples.firstWrite(key, "h"));
          } catch (LeaseRepositoryFailure e) {
            failure = e;
          }
        }

        assertThat(failure).as("failure when the disk is full").isNotNull();
        assertThat(failure.getMessage()).contains(db.toString()).contains("disk is full");
      }
    }
  }

  /** Makes a file read-only in a way that holds even for root. */
  private record ReadOnly(Path file, boolean immutable) {

    static ReadOnly make(Path file) throws Exception {
      if (!"root".equals(System.getProperty("user.name"))) {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        return new ReadOnly(file, false);
      }
      int exit = new ProcessBuilder("chattr", "+i", file.toString()).inheritIO().start().waitFor();
      assumeThat(exit).as("chattr +i works here (root ignores permission bits)").isZero();
      return new ReadOnly(file, true);
    }

    void undo() throws Exception {
      if (immutable) {
        new ProcessBuilder("chattr", "-i", file.toString()).inheritIO().start().waitFor();
      } else {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
  }
}
