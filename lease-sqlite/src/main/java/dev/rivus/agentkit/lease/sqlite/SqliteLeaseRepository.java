/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.StoreLost;
import dev.rivus.agentkit.lease.support.DirectoryWatch;
import dev.rivus.agentkit.lease.support.KeyWatches;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Lease records in one SQLite file, shared by every process of one machine that opens it: the
 * embedded default repository.
 *
 * <pre>{@code
 * try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(Path.of("/var/lib/app/leases.db"));
 *     LeaseManager leases = LeaseManager.builder(repository).build();
 *     Lease lease = leases.acquire("task:42")) {
 *   lease.runFenced(token -> store.write(result, token.generation()));
 * }
 * }</pre>
 *
 * <p><b>Comparing.</b> A write is an {@code UPDATE} (or, for a key with no record, an {@code
 * INSERT}) that compares the stored revision itself, inside a {@code BEGIN IMMEDIATE} transaction,
 * which takes the database's write lock first: no other connection, in this process or another, can
 * write between the comparison and the write. {@link #saveAll} writes a whole batch in one
 * transaction with one commit, each write compared on its own.
 *
 * <p><b>Durability, by intent.</b> The database runs in WAL mode. A transaction holding an
 * acquisition ({@link LeaseWrite#raisesGeneration()}) commits with {@code synchronous=FULL}: the
 * WAL is synced before {@code save} returns, so a generation handed out survives a crash and a
 * power cut. Renewals and releases keep the generation and commit with {@code synchronous=NORMAL}
 * (synced at the next checkpoint or {@code FULL} commit). A power cut may lose such a commit,
 * together with every later one, never one without those before it (WAL frames carry chained
 * checksums, so recovery keeps a prefix of the commits). What survives therefore ends at or after
 * the last {@code FULL} commit, that is after the last generation raised: the record can only look
 * older (an earlier revision of the same generation, or still held by a holder that had released),
 * and no generation ever goes back. A process crash loses nothing that was committed in either
 * mode. {@link SqliteOptions.Builder#syncEveryWrite(boolean)} syncs every write.
 *
 * <p><b>Records.</b> Each record carries the TTL its holder promised. Revisions never repeat for a
 * key, also across {@link #prune(Duration) pruning}: a key with no record loads as a floor above
 * every generation and revision ever pruned, and its next record is created over it.
 *
 * <p><b>Identity.</b> The repository opens the real file behind the path (symbolic links resolved),
 * refuses a file with several hard links, and refuses a file that is empty or shorter than a
 * database header rather than adopt it. Every call first checks that the file at the path is still
 * the one it opened; once the file was deleted, replaced or emptied, every call fails with {@link
 * StoreLost}, so holders give their leases up at once.
 *
 * <p><b>Busy databases.</b> A call that meets a database locked by another connection retries with
 * a jittered exponential backoff and fails with {@link LeaseRepositoryFailure} once {@link
 * SqliteOptions#busyWait()} is spent, saying how long it waited and how many attempts it made; it
 * never hangs and never lets {@code SQLITE_BUSY} out.
 *
 * <p><b>Key lock.</b> {@link #lockKey} locks one byte, chosen by a hash of the key, of the side
 * file {@code <database>.fence} named after the real file; the operating system releases it when
 * the holding process dies. It never touches the database, so it never delays a save or a renewal.
 *
 * <p><b>Not supported:</b> a database on a network file system (NFS, SMB): SQLite's locking and WAL
 * need a local file system, and so does the key lock.
 *
 * <p>Thread-safe.
 */
public final class SqliteLeaseRepository implements PrunableLeaseRepository {

  private final Path file;
  private final SqliteOptions options;
  private final Database database;
  private final Writes writes;
  private final KeyLocks keyLocks;
  private final Pruning pruning;
  private final KeyWatches watches = new KeyWatches();
  private final DirectoryWatch changes;

  private SqliteLeaseRepository(StorePath store, SqliteOptions options, Database database) {
    this.file = store.file();
    this.options = options;
    this.database = database;
    this.writes = new Writes(database, options.syncEveryWrite());
    this.keyLocks = new KeyLocks(store.keyLockFile(), database);
    this.pruning = new Pruning(database, options.clock());
    Path directory = Objects.requireNonNull(file.getParent(), "the database file's directory");
    String name = String.valueOf(file.getFileName());
    Set<String> written = Set.of(name, name + "-wal", name + "-journal");
    this.changes =
        new DirectoryWatch(
            directory,
            watches,
            changed -> {
              if (written.contains(changed.toString())) {
                watches.wakeAll(); // a commit of any key: every waiter looks again
              }
            },
            "lease-sqlite-watch");
  }

  /**
   * Opens the lease database in {@code databaseFile} with the default options, creating the file
   * and its schema if the file does not exist.
   *
   * @param databaseFile the database file, or a symbolic link to it; its directory must exist
   * @return the open repository; close it to release its connections
   * @throws LeaseRepositoryFailure if the directory is missing, the path is a dangling link, the
   *     file is read-only, has several hard links, is empty or truncated, is not a lease database,
   *     has a newer schema version, is corrupt, or stays locked beyond the busy wait
   * @throws NullPointerException if {@code databaseFile} is null
   */
  public static SqliteLeaseRepository open(Path databaseFile) {
    return open(databaseFile, SqliteOptions.defaults());
  }

  /**
   * Loads the SQLite native library and initialises the driver now, which the first {@link #open}
   * otherwise does (tens of milliseconds). A short-lived program can call this on a thread of its
   * own at start, so that the work overlaps with its other start-up work; later calls return at
   * once. Thread-safe.
   *
   * @throws LeaseRepositoryFailure if the native library cannot be loaded
   */
  public static void preload() {
    Connections.preload();
  }

  /**
   * Opens the lease database in {@code databaseFile}, creating the file and its schema if the file
   * does not exist (unless {@link SqliteOptions#createIfMissing()} is off), and migrating a
   * database of an earlier schema version.
   *
   * <p>With {@link SqliteOptions#readOnly()}, opens an existing database for reading only ({@link
   * #load}, {@link #loadAll}): nothing is written to the file or next to it, so that the database
   * can be read where the process may not write, a read-only file system or another user's file.
   * Where the directory is read-only and no write-ahead log is left, SQLite could not open the file
   * in WAL mode at all; it is then read as immutable ({@code immutable=1}), which it is while
   * nothing can write next to it. Every write, prune and key lock of the repository then fails with
   * {@link LeaseRepositoryFailure}; the database is neither created nor migrated.
   *
   * @param databaseFile the database file, or a symbolic link to it; its directory must exist
   * @param options busy wait, connections, durability, clock, whether to create, and whether to
   *     only read
   * @return the open repository; close it to release its connections
   * @throws LeaseRepositoryFailure if there is no file and none may be created (named as such even
   *     when its directory is missing too; a read-only opening never creates one), the directory is
   *     missing, the path is a dangling link, the file is read-only (unless opened read-only), has
   *     several hard links, is empty or truncated, is not a lease database, has a newer schema
   *     version (read-only: another than this release's, since only a writing opening migrates), is
   *     corrupt, or stays locked beyond the busy wait
   * @throws NullPointerException if an argument is null
   */
  public static SqliteLeaseRepository open(Path databaseFile, SqliteOptions options) {
    Objects.requireNonNull(databaseFile, "databaseFile");
    Objects.requireNonNull(options, "options");
    if (options.readOnly()) {
      return openReadOnly(databaseFile, options);
    }
    if (!options.createIfMissing() && !Files.exists(databaseFile)) {
      // Before the path is resolved, whose complaint about a missing directory would advise to
      // create it, and before the opening lock, whose side file would be created.
      throw Opening.missing(databaseFile.toAbsolutePath());
    }
    StorePath store = StorePath.resolve(databaseFile);
    return new SqliteLeaseRepository(store, options, new Opening(store, options).open());
  }

  /** The read-only opening of {@link #open(Path, SqliteOptions)}. */
  private static SqliteLeaseRepository openReadOnly(Path databaseFile, SqliteOptions options) {
    if (!Files.exists(databaseFile)) {
      throw Opening.missing(databaseFile.toAbsolutePath());
    }
    StorePath store = StorePath.resolveForReading(databaseFile);
    return new SqliteLeaseRepository(store, options, new Opening(store, options).openReadOnly());
  }

  /**
   * Returns the database file.
   *
   * @return the real path of the file, symbolic links resolved
   */
  public Path file() {
    return file;
  }

  /**
   * Returns the options this repository was opened with.
   *
   * @return the options
   */
  public SqliteOptions options() {
    return options;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public Optional<LeaseSnapshot> load(String key) {
    LeaseKeys.requireValid(key);
    byte[] keyBytes = KeyBytes.encode(key);
    return database.read(
        key,
        "loading lease '" + key + "'",
        session -> {
          Optional<LeaseSnapshot> stored = readRecord(session, key, keyBytes);
          return stored.isPresent() ? stored : Rows.floor(session).of(key);
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>All in one read transaction.
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public Map<String, LeaseSnapshot> loadAll(Collection<String> keys) {
    List<String> valid = new ArrayList<>(keys.size());
    for (String key : keys) {
      valid.add(LeaseKeys.requireValid(key));
    }
    return database.read(
        null,
        "loading " + valid.size() + " leases",
        session -> {
          Map<String, LeaseSnapshot> stored = new HashMap<>(valid.size() * 2);
          Rows.@Nullable Floor floor = null;
          for (String key : valid) {
            Optional<LeaseSnapshot> record = readRecord(session, key, KeyBytes.encode(key));
            if (record.isEmpty()) {
              floor = floor != null ? floor : Rows.floor(session);
              record = floor.of(key);
            }
            record.ifPresent(snapshot -> stored.put(key, snapshot));
          }
          return stored;
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Besides the revision, the stored record must fit the write: an acquisition raises its
   * generation, a renewal or release keeps its generation and holder, and a new record's generation
   * is above the pruning floor. Since revisions never repeat, only a writer of schema version 1
   * still running on a migrated file could make a write fail that check; it fails as a {@link
   * dev.rivus.agentkit.lease.RevisionConflict}. A renewal or release never creates a record.
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public void save(LeaseWrite write) {
    writes.save(Objects.requireNonNull(write, "write"));
    released(write);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A watch wakes at once on a release saved through this repository, and, through the operating
   * system's file notifications on the database's directory (inotify on Linux), on every commit to
   * the database (its WAL) by any process of the machine, whichever key it wrote: the waiter then
   * reads its record again. The first watch starts one daemon thread that reads the notifications,
   * given up 30 s after the last watch closed or on {@link #close()}. Where the platform has no
   * native file notifications, or the directory cannot be watched, there is no watch and waiters
   * poll.
   */
  @Override
  public Optional<KeyWatch> watchKey(String key) {
    KeyWatch watch = watches.open(LeaseKeys.requireValid(key));
    if (!changes.watching()) {
      watch.close();
      return Optional.empty();
    }
    return Optional.of(watch);
  }

  private void released(LeaseWrite write) {
    if (write.intent() == LeaseWrite.Intent.RELEASE) {
      watches.wake(write.key());
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The whole batch is one transaction with one commit, synced if any write raises a generation,
   * each write compared on its own by one prepared statement in JDBC batches, with no read per
   * write.
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    for (LeaseWrite write : Objects.requireNonNull(writes, "writes")) {
      Objects.requireNonNull(write, "a write of the batch");
    }
    List<SaveOutcome> outcomes = this.writes.saveAll(writes);
    for (SaveOutcome outcome : outcomes) {
      if (outcome.isSaved()) {
        released(outcome.write());
      }
    }
    return outcomes;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The key lock is an operating-system lock on one byte of {@code <database>.fence}, chosen by
   * a 64-bit hash (SHA-256) of the key, behind a fair in-process lock: threads of this JVM and
   * other processes exclude each other, and the system releases the key lock of a process that
   * dies. Two keys share a byte only if their hashes agree in 62 bits; they would then only wait
   * for each other. The key lock file is never the database, so a held key lock never delays a
   * save. A key lock is no longer held once its key lock file is deleted or replaced.
   */
  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    return keyLocks.lock(LeaseKeys.requireValid(key));
  }

  /**
   * Deletes tombstones (released records) last written at least {@code olderThan} ago, by the
   * options' clock, and raises the stored generation and revision floors to the highest deleted, in
   * one synced transaction. A pruned key then loads as a floor, and its next record gets a
   * generation and revision above every one it had; no held record is ever deleted.
   *
   * @param olderThan how old a tombstone must be to go; zero prunes every tombstone
   * @return how many records were deleted
   * @throws StoreLost if the file is no longer the one this repository opened
   * @throws LeaseRepositoryFailure if the database cannot be written within the busy wait
   * @throws NullPointerException if {@code olderThan} is null
   * @throws IllegalArgumentException if {@code olderThan} is negative
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public int prune(Duration olderThan) {
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must be zero or positive, was " + olderThan);
    }
    return pruning.prune(olderThan);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public List<LeaseSnapshot> loadAll() {
    return database.read(
        null,
        "loading every lease",
        session -> {
          try {
            return Rows.selectAll(session);
          } catch (IllegalArgumentException | DateTimeException e) {
            throw new LeaseRepositoryFailure(
                null,
                "lease database " + file + ": a record is damaged (" + e.getMessage() + ")",
                e);
          }
        });
  }

  private Optional<LeaseSnapshot> readRecord(Session session, String key, byte[] keyBytes)
      throws SQLException {
    try {
      return Rows.select(session, key, keyBytes);
    } catch (IllegalArgumentException | DateTimeException e) {
      throw new LeaseRepositoryFailure(
          key,
          "lease database "
              + file
              + ": the record of '"
              + key
              + "' is damaged ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /** How many transactions this repository committed; for tests that count them. */
  long commits() {
    return database.commits();
  }

  /** The database this repository runs its work on; for tests. */
  Database database() {
    return database;
  }

  /** The key lock file; for tests. */
  Path keyLockFile() {
    return keyLocks.file();
  }

  /**
   * Closes the idle connections at once and the others when their calls end. Key locks still held
   * stay held until closed. Does not delete the database.
   */
  @Override
  public void close() {
    try {
      changes.close();
    } finally {
      database.close();
    }
  }

  @Override
  public String toString() {
    return "SqliteLeaseRepository[" + database + "]";
  }
}
