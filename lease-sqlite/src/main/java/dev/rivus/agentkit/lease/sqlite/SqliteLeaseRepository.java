package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Lease records in one SQLite file, shared by every process of one machine that opens it: the
 * embedded default repository.
 *
 * <pre>{@code
 * try (SqliteLeaseRepository repository = SqliteLeaseRepository.open(Path.of("/var/lib/app/leases.db"));
 *     LeaseManager leases = LeaseManager.create(repository, LeaseConfig.defaults());
 *     Lease lease = leases.acquire("task:42")) {
 *   lease.runFenced(token -> store.write(result, token.generation()));
 * }
 * }</pre>
 *
 * <p><b>Comparing.</b> {@link #save} reads the stored revision and writes the new record inside one
 * {@code BEGIN IMMEDIATE} transaction, which takes the database's write lock before the read, so no
 * other connection, in this process or another, can write between the comparison and the write.
 *
 * <p><b>Durability.</b> The database runs in WAL mode. A write that creates a record or raises its
 * generation commits with {@code synchronous=FULL}: the WAL is synced before {@code save} returns,
 * so a generation handed out survives a crash and a power cut. A renewal or release keeps the
 * generation and commits with {@code synchronous=NORMAL} (synced at the next checkpoint or {@code
 * FULL} commit). A power cut may lose such a write, together with every later one, never one
 * without those before it (WAL frames carry chained checksums, so recovery keeps a prefix of the
 * commits). What survives therefore ends at or after the last {@code FULL} commit, that is after
 * the last generation raised: the record can only look older (an earlier revision of the same
 * generation, or still held by a holder that had released), and no generation ever goes back. A
 * process crash loses nothing that was committed in either mode. {@link
 * SqliteOptions.Builder#syncEveryWrite(boolean)} syncs every write.
 *
 * <p><b>Busy databases.</b> A call that meets a database locked by another connection retries with
 * a jittered exponential backoff and fails with {@link LeaseRepositoryFailure} once {@link
 * SqliteOptions#busyWait()} is spent, saying how long it waited and how many attempts it made; it
 * never hangs and never lets {@code SQLITE_BUSY} out.
 *
 * <p><b>Fence.</b> {@link #lockFence} locks one byte, chosen by a hash of the key, of the side file
 * {@code <database>.fence}; the operating system releases it when the holding process dies. It
 * never touches the database, so it never delays a save or a renewal.
 *
 * <p><b>Pruning.</b> {@link #prune(Duration)} deletes old tombstones and raises a stored generation
 * floor; a key that comes back starts above it, so generations stay monotonic.
 *
 * <p><b>Not supported:</b> a database on a network file system (NFS, SMB): SQLite's locking and WAL
 * need a local file system, and so does the fence.
 *
 * <p>Thread-safe.
 */
public final class SqliteLeaseRepository implements PrunableLeaseRepository {

  private final Path file;
  private final Database database;
  private final Path fenceFile;
  private final SyncPredictor sync;
  private final SqliteOptions options;

  private SqliteLeaseRepository(Path file, SqliteOptions options, Database database) {
    this.file = file;
    this.options = options;
    this.database = database;
    this.fenceFile = file.resolveSibling(file.getFileName() + ".fence");
    this.sync = new SyncPredictor(options.syncEveryWrite());
  }

  /**
   * Opens the lease database in {@code databaseFile} with the default options, creating the file
   * and its schema if the file does not exist.
   *
   * @param databaseFile the database file; its directory must exist
   * @return the open repository; close it to release its connections
   * @throws LeaseRepositoryFailure if the directory is missing, the file is read-only, not a lease
   *     database, of a newer schema version, corrupt, or stays locked beyond the busy wait
   * @throws IllegalArgumentException if {@code databaseFile} is null
   */
  public static SqliteLeaseRepository open(@Nullable Path databaseFile) {
    return open(databaseFile, SqliteOptions.defaults());
  }

  /**
   * Opens the lease database in {@code databaseFile}, creating the file and its schema if the file
   * does not exist.
   *
   * @param databaseFile the database file; its directory must exist
   * @param options busy wait, connections, durability and clock
   * @return the open repository; close it to release its connections
   * @throws LeaseRepositoryFailure if the directory is missing, the file is read-only, not a lease
   *     database, of a newer schema version, corrupt, or stays locked beyond the busy wait
   * @throws IllegalArgumentException if an argument is null
   */
  public static SqliteLeaseRepository open(
      @Nullable Path databaseFile, @Nullable SqliteOptions options) {
    if (databaseFile == null || options == null) {
      throw new IllegalArgumentException("databaseFile and options must not be null");
    }
    Path file = Opening.checkedPath(databaseFile);
    Database database = new Database(file, options);
    try {
      new Opening(file, database).prepare();
      return new SqliteLeaseRepository(file, options, database);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  /**
   * Returns the database file.
   *
   * @return the absolute path of the file
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
   * <p>After {@link #prune(Duration)} removed tombstones, a key with no record loads as a floor: a
   * released snapshot with revision {@code 0}, the highest pruned generation, and a placeholder
   * holder.
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
          return stored.isPresent() ? stored : Rows.floor(session, key);
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Besides the revision, the stored record is checked against the new one: a write never lowers
   * the generation, never gives the current generation to another holder, and never creates a
   * record at or below the pruning floor. Such a write can only come from a writer whose read
   * predates a pruning (revisions restart after one), and it fails as a {@link RevisionConflict}.
   *
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public void save(String key, LeaseSnapshot snapshot, long expectedRevision) {
    LeaseKeys.requireValid(key);
    if (snapshot == null) {
      throw new IllegalArgumentException("snapshot must not be null");
    }
    if (!key.equals(snapshot.key())) {
      throw new IllegalArgumentException(
          "key '" + key + "' does not match the snapshot's key '" + snapshot.key() + "'");
    }
    if (expectedRevision < 0 || snapshot.revision() <= expectedRevision) {
      throw new IllegalArgumentException(
          "the snapshot's revision "
              + snapshot.revision()
              + " must be higher than the expected revision "
              + expectedRevision
              + " (which must not be negative)");
    }
    byte[] keyBytes = KeyBytes.encode(key);
    String operation = "saving lease '" + key + "' over revision " + expectedRevision;
    SyncMode mode = sync.predict(key, snapshot);
    try {
      try {
        database.write(
            key, operation, mode, s -> compareAndWrite(s, keyBytes, snapshot, expectedRevision));
      } catch (NeedsFullSync mispredicted) {
        database.write(
            key,
            operation,
            SyncMode.FULL,
            s -> compareAndWrite(s, keyBytes, snapshot, expectedRevision));
      }
    } catch (RevisionConflict conflict) {
      sync.forget(key);
      throw conflict;
    }
    sync.saved(key, snapshot);
  }

  /**
   * The compare-and-set transaction; returns whether it created a record or raised a generation.
   */
  private boolean compareAndWrite(
      Session session, byte[] keyBytes, LeaseSnapshot snapshot, long expectedRevision)
      throws SQLException {
    String key = snapshot.key();
    session.begin();
    Optional<LeaseSnapshot> stored = readRecord(session, key, keyBytes);
    long actual = stored.map(LeaseSnapshot::revision).orElse(0L);
    if (actual != expectedRevision) {
      throw new RevisionConflict(key, expectedRevision, actual);
    }
    if (stored.isEmpty()) {
      long floor = Rows.floor(session, key).map(LeaseSnapshot::generation).orElse(0L);
      if (snapshot.generation() <= floor) {
        throw new RevisionConflict(key, expectedRevision, -1);
      }
    } else if (!keepsOrRaises(stored.get(), snapshot)) {
      throw new RevisionConflict(key, expectedRevision, -1);
    }
    boolean raises = stored.isEmpty() || snapshot.generation() != stored.get().generation();
    if (raises && session.mode() != SyncMode.FULL) {
      throw new NeedsFullSync(); // rolled back by the caller: nothing written yet
    }
    if (stored.isEmpty()) {
      Rows.insert(session, keyBytes, snapshot);
    } else {
      Rows.update(session, keyBytes, snapshot);
    }
    session.commit();
    return raises;
  }

  /**
   * Whether {@code next} may follow {@code stored} of the same revision: the same generation under
   * the same holder (a renewal or release), or a higher generation (an acquisition).
   */
  private static boolean keepsOrRaises(LeaseSnapshot stored, LeaseSnapshot next) {
    if (next.generation() > stored.generation()) {
      return true;
    }
    return next.generation() == stored.generation() && next.holder().equals(stored.holder());
  }

  /**
   * {@inheritDoc}
   *
   * <p>The fence is an operating-system lock on one byte of {@code <database>.fence}, chosen by a
   * 64-bit hash (SHA-256) of the key, behind a fair in-process lock ({@link FileRangeLock}):
   * threads of this JVM and other processes exclude each other, and the system releases the fence
   * of a process that dies. Two keys share a byte only if their hashes agree in 62 bits; they would
   * then only wait for each other. The fence file is never the database, so a held fence never
   * delays a save.
   */
  @Override
  public Fence lockFence(String key) throws InterruptedException {
    LeaseKeys.requireValid(key);
    FileRangeLock.Held held;
    try {
      held = FileRangeLock.ofHash(fenceFile, KeyBytes.hash64(key)).lock();
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(key, e.getMessage(), e);
    }
    return held::close;
  }

  /**
   * Deletes tombstones (released records) last written at least {@code olderThan} ago, by the
   * options' clock, and raises the stored generation floor to the highest generation deleted, in
   * one synced transaction. A pruned key then loads as a floor snapshot, and its next acquisition
   * gets a generation above every one it had; no held record is ever deleted.
   *
   * @param olderThan how old a tombstone must be to go; zero prunes every tombstone
   * @return how many records were deleted
   * @throws LeaseRepositoryFailure if the database cannot be written within the busy wait
   * @throws IllegalArgumentException if {@code olderThan} is null or negative
   * @throws IllegalStateException if the repository is closed
   */
  @Override
  public int prune(@Nullable Duration olderThan) {
    if (olderThan == null || olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must be zero or positive, was " + olderThan);
    }
    Instant now = options.clock().instant();
    Instant cutoff = cutoff(now, olderThan);
    return database.write(
        null,
        "pruning tombstones older than " + olderThan,
        SyncMode.FULL,
        session -> {
          session.begin();
          var select = session.statement(Sql.SELECT_PRUNABLE);
          select.setLong(1, cutoff.getEpochSecond());
          select.setLong(2, cutoff.getNano());
          int count;
          long highest;
          try (ResultSet row = select.executeQuery()) {
            row.next();
            count = row.getInt(1);
            highest = row.getLong(2);
          }
          if (count > 0) {
            var raise = session.statement(Sql.RAISE_FLOOR);
            raise.setLong(1, highest);
            raise.executeUpdate();
            var stamp = session.statement(Sql.SET_FLOOR_TIME);
            stamp.setLong(1, now.getEpochSecond());
            stamp.executeUpdate();
            var delete = session.statement(Sql.DELETE_PRUNABLE);
            delete.setLong(1, cutoff.getEpochSecond());
            delete.setLong(2, cutoff.getNano());
            delete.executeUpdate();
          }
          session.commit();
          return count;
        });
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

  /**
   * Closes the idle connections at once and the others when their calls end. Fences still held stay
   * held until closed. Does not delete the database.
   */
  @Override
  public void close() {
    database.close();
  }

  @Override
  public String toString() {
    return "SqliteLeaseRepository[" + database + "]";
  }

  /**
   * Thrown inside a transaction that turned out to raise a generation on a {@code NORMAL}
   * connection.
   */
  private static final class NeedsFullSync extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NeedsFullSync() {
      super(null, null, false, false);
    }
  }

  private static Instant cutoff(Instant now, Duration olderThan) {
    try {
      return now.minus(olderThan);
    } catch (DateTimeException | ArithmeticException beforeTime) {
      return Instant.MIN; // older than anything the clock can name: prunes nothing
    }
  }
}
