/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.testkit.LeaseHolderMain;
import dev.rivus.agentkit.lease.testkit.Samples;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several child JVMs on one SQLite file: one winner per revision, crashes, the key lock, busy
 * files.
 */
@Tag("cross-process")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SqliteMultiProcessTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final List<ChildJvm> children = new ArrayList<>();

  @AfterEach
  void destroyChildren() {
    children.forEach(ChildJvm::close);
  }

  private ChildJvm child(String... args) {
    ChildJvm child = ChildJvm.start(SqliteChildMain.class, List.of(args));
    children.add(child);
    return child;
  }

  @Test
  void concurrentSaversInThreeProcessesHaveExactlyOneWinnerPerRevision() throws Exception {
    Path db = dir.resolve("leases.db");
    long firstGeneration = Samples.first("contended", "seed").generation();
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      repository.save(Samples.firstWrite("contended", "seed"));
    }
    List<ChildJvm> racers =
        List.of(
            child("savers", db.toString(), "contended", "2", "2000"),
            child("savers", db.toString(), "contended", "2", "2000"),
            child("savers", db.toString(), "contended", "2", "2000"));
    for (ChildJvm racer : racers) {
      racer.awaitLine("READY", PATIENCE);
    }

    racers.forEach(racer -> racer.send("GO"));

    List<Long> won = new ArrayList<>();
    long raises = 0;
    for (ChildJvm racer : racers) {
      String done = racer.awaitLine("DONE ", PATIENCE);
      raises += number(done, "raises");
      for (String line : racer.stdoutLines()) {
        assertThat(line).as("output of %s", racer).doesNotStartWith("ERROR");
        if (line.startsWith("WON ")) {
          won.add(Long.parseLong(line.substring(4)));
        }
      }
    }
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      LeaseSnapshot last = repository.load("contended").orElseThrow();
      assertThat(won).as("revisions won across processes").doesNotHaveDuplicates().isNotEmpty();
      assertThat(last.revision()).as("final revision").isEqualTo(1 + won.size());
      assertThat(last.generation()).as("final generation").isEqualTo(firstGeneration + raises);
    }
  }

  @Test
  void killedDuringAStreamOfAcquisitionsLosesAndRepeatsNoGeneration() throws Exception {
    Path db = dir.resolve("leases.db");
    ChildJvm stream = child("stream", db.toString(), "task");
    stream.awaitLine("READY", PATIENCE);
    for (int i = 0; i < 40; i++) {
      stream.awaitLine("ACQUIRED ", PATIENCE);
    }

    stream.kill();

    List<Long> reported = new ArrayList<>();
    for (String line : stream.stdoutLines()) {
      if (line.startsWith("ACQUIRED ")) {
        reported.add(Long.parseLong(line.substring(9)));
      }
    }
    long lastReported = reported.get(reported.size() - 1);
    for (int i = 1; i < reported.size(); i++) {
      assertThat(reported.get(i))
          .as("generation after %s", reported.get(i - 1))
          .isEqualTo(reported.get(i - 1) + 1);
    }
    assertThat(integrityCheck(db)).isEqualTo("ok");
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db);
        LeaseManager leases = LeaseManager.builder(repository).build()) {
      long stored = repository.load("task").orElseThrow().generation();
      // The kill may land after a commit and before the child printed it: one more, never fewer.
      assertThat(stored)
          .as("stored generation after the kill")
          .isBetween(lastReported, lastReported + 1);
      try (Lease next = leases.acquire("task")) {
        assertThat(next.generation()).as("next generation").isGreaterThan(stored);
      }
    }
  }

  @Test
  void keyLockHeldByAnotherProcessExcludesThisOneAndIsReleasedWhenThatProcessIsKilled()
      throws Exception {
    Path db = dir.resolve("leases.db");
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      LeaseWrite first = Samples.firstWrite("fenced", "holder");
      repository.save(first);
      ChildJvm holder = child("fence", db.toString(), "fenced");
      holder.awaitLine("FENCED", PATIENCE);

      CompletableFuture<LeaseRepository.KeyLock> waiter =
          CompletableFuture.supplyAsync(() -> lockKey(repository, "fenced"));
      // Saves (renewals) go on while another process holds the key lock.
      LeaseWrite renewal = first.snapshot().renewal(Samples.TIME.plusSeconds(1));
      repository.save(renewal);
      assertThat(repository.load("fenced")).hasValue(renewal.snapshot());
      try (LeaseRepository.KeyLock other = repository.lockKey("another key")) {
        assertThat(other).isNotNull();
      }
      assertThat(waiter).as("key lock wait while the child holds it").isNotDone();
      assertThatWaitStillPending(waiter);

      holder.kill();

      try (LeaseRepository.KeyLock keyLock = waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
        assertThat(keyLock).isNotNull();
      }
    }
  }

  @Test
  void keyLockHeldThroughASymbolicLinkInAnotherProcessExcludesThisOneByTheRealName()
      throws Exception {
    Path db = dir.resolve("leases.db");
    SqliteLeaseRepository.open(db).close();
    Path link = Files.createSymbolicLink(dir.resolve("link.db"), db);
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      ChildJvm holder = child("fence", link.toString(), "fenced");
      holder.awaitLine("FENCED", PATIENCE);

      CompletableFuture<LeaseRepository.KeyLock> waiter =
          CompletableFuture.supplyAsync(() -> lockKey(repository, "fenced"));
      assertThatWaitStillPending(waiter);

      holder.kill();

      try (LeaseRepository.KeyLock keyLock = waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
        assertThat(keyLock.isHeld()).isTrue();
      }
    }
  }

  @Test
  void aHolderInAnotherProcessWhoseDatabaseIsDeletedLosesItsLeaseAndItsFencedWork()
      throws Exception {
    Path db = dir.resolve("leases.db");
    Path journal = dir.resolve("journal");
    ChildJvm holder =
        ChildJvm.start(
            LeaseHolderMain.class,
            List.of(
                "--factory=" + SqliteRepositoryFactory.class.getName(),
                "--spec=" + db,
                "--key=deleted",
                "--ttl=PT10S",
                "--heartbeat=PT0.5S",
                "--journal=" + journal));
    children.add(holder);
    long childGeneration = Long.parseLong(holder.awaitLine("ACQUIRED ", PATIENCE).substring(9));
    holder.awaitLine("WROTE ", PATIENCE);

    StoreFiles.deleteAll(db); // rm leases.db*

    assertThat(holder.awaitLine("LOST ", PATIENCE)).isEqualTo("LOST STORE_LOST");
    assertThat(holder.awaitExit(PATIENCE)).isEqualTo(LeaseHolderMain.EXIT_LOST);
    assertThat(journalGenerations(journal)).as("the child's writes").containsOnly(childGeneration);
    long successorGeneration;
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db);
        LeaseManager leases = LeaseManager.builder(repository).build();
        Lease successor = leases.acquire("deleted")) {
      successorGeneration = successor.generation();
      successor.runFenced(
          token -> {
            Files.writeString(journal, token.generation() + " pid 0\n", StandardOpenOption.APPEND);
            return null;
          });
    }
    assertThat(successorGeneration)
        .as("the new database's first generation")
        .isGreaterThan(childGeneration);
    assertThat(journalGenerations(journal))
        .as("generations in the journal, in the order written")
        .isSorted()
        .endsWith(successorGeneration);
  }

  /** The generations in a journal of {@link LeaseHolderMain}: one line each, the first field. */
  private static List<Long> journalGenerations(Path journal) throws Exception {
    List<Long> generations = new ArrayList<>();
    for (String line : Files.readAllLines(journal)) {
      generations.add(Long.parseLong(line.substring(0, line.indexOf(' '))));
    }
    return generations;
  }

  @Test
  void manyProcessesHammeringOneFileEitherSucceedOrFailWithinTheBusyWait() throws Exception {
    Path db = dir.resolve("leases.db");
    long[] firstGenerations = new long[3];
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      for (int k = 0; k < 3; k++) {
        LeaseWrite first = Samples.firstWrite("hammer-" + k, "seed");
        repository.save(first);
        repository.save(first.snapshot().release(Samples.TIME));
        firstGenerations[k] = first.snapshot().generation();
      }
    }
    long busyMillis = 250;
    List<ChildJvm> hammers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      hammers.add(child("hammer", db.toString(), "3000", Long.toString(busyMillis)));
    }

    long acquired = 0;
    for (ChildJvm hammer : hammers) {
      String done = hammer.awaitLine("DONE ", PATIENCE);
      System.out.println(hammer + ": " + done); // kept in the surefire report, for the record
      assertThat(hammer.stdoutLines())
          .as("output of %s", hammer)
          .noneMatch(l -> l.startsWith("ERROR"));
      assertThat(number(done, "otherFailures")).as("failures other than busy: %s", done).isZero();
      // Bounded: a call spends at most the busy wait retrying, plus one last attempt and scheduling
      // delays on a loaded two-core machine.
      assertThat(number(done, "maxMillis"))
          .as("longest repository call: %s", done)
          .isLessThan(busyMillis + 2_000);
      acquired += number(done, "acquired");
    }
    assertThat(acquired).as("acquisitions across processes").isPositive();
    try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(db)) {
      long raised = 0;
      for (int k = 0; k < 3; k++) {
        raised += repository.load("hammer-" + k).orElseThrow().generation() - firstGenerations[k];
      }
      assertThat(raised).as("generations raised = acquisitions").isEqualTo(acquired);
    }
  }

  private static void assertThatWaitStillPending(CompletableFuture<LeaseRepository.KeyLock> waiter)
      throws Exception {
    try {
      LeaseRepository.KeyLock unexpected = waiter.get(300, TimeUnit.MILLISECONDS);
      unexpected.close();
      throw new AssertionError("took the key lock while another process held it");
    } catch (TimeoutException expected) {
      // still waiting, as it must
    }
  }

  private static LeaseRepository.KeyLock lockKey(LeaseRepository repository, String key) {
    try {
      return repository.lockKey(key);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String integrityCheck(Path db) throws Exception {
    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement statement = raw.createStatement();
        ResultSet row = statement.executeQuery("PRAGMA integrity_check")) {
      row.next();
      return row.getString(1);
    }
  }

  private static long number(String line, String name) {
    Matcher m = Pattern.compile("\\b" + name + "=(\\d+)").matcher(line);
    if (!m.find()) {
      throw new AssertionError("no " + name + " in '" + line + "'");
    }
    return Long.parseLong(m.group(1));
  }
}
