/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseKeys;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.support.DirectoryIdentity;
import dev.rivus.agentkit.lease.support.DirectoryWatch;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import dev.rivus.agentkit.lease.support.KeyWatches;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A repository of JSON files in one directory, shared by the processes of one machine without a
 * database: one record file per key, written under a per-key write lock file to a temporary file
 * that is fsynced, atomically renamed over the record, and made durable by an fsync of the
 * directory. Reads take no lock, since a rename is atomic. The key lock of a key is a lock on
 * another file than its write lock, so renewals never wait for fenced work.
 *
 * <p>Locks are operating-system file locks ({@link FileRangeLock}): the system releases them when a
 * holding process dies. They hold between the processes of one machine on a local file system; on a
 * network file system they are only as good as its lock manager, so one machine per directory is
 * the supported use. Files are named from the key (see the record file names in the directory
 * listing: a readable prefix and a hash), so no key can reach outside the directory. Record, lock
 * and temporary files are never deleted by the repository.
 *
 * <p><b>Identity.</b> The directory is known by its real path (a symlink to it is the same store)
 * and by its identity, which the repository holds open until {@link #close()}. If the directory is
 * deleted or replaced while the repository runs, every later call fails with {@link
 * dev.rivus.agentkit.lease.StoreLost}, so its holders give their leases up at once; a record file
 * deleted under its holder is found at the next renewal, and the lease lost the same way.
 *
 * <p>Thread-safe; any number of instances, in one process or many, may share a directory. A key
 * lock stays held until its own {@code close}.
 */
public final class FileLeaseRepository implements LeaseRepository {

  private static final String RECORD_SUFFIX = ".json";

  private final Path directory;
  private final FileOptions options;
  private final DirectoryIdentity identity;
  private final RecordCodec codec = new RecordCodec();

  /** By the base name of each key's files ({@link RecordNames#baseName}). */
  private final KeyWatches watches = new KeyWatches();

  private final DirectoryWatch changes;

  private FileLeaseRepository(Path directory, FileOptions options, DirectoryIdentity identity) {
    this.directory = directory;
    this.options = options;
    this.identity = identity;
    this.changes =
        new DirectoryWatch(
            directory, watches, name -> recordChanged(watches, name), "lease-file-watch");
  }

  /** Wakes the watches of the key whose record file was renamed into place or deleted. */
  private static void recordChanged(KeyWatches watches, Path name) {
    String file = name.toString();
    if (file.endsWith(RECORD_SUFFIX)) {
      watches.wake(file.substring(0, file.length() - RECORD_SUFFIX.length()));
    }
  }

  /**
   * Opens the repository in {@code directory} with the default options, creating the directory if
   * missing.
   *
   * @param directory the directory of the record files
   * @return the repository
   * @throws LeaseRepositoryFailure if the directory cannot be created, is not a directory, or is
   *     not writable
   * @throws NullPointerException if {@code directory} is null
   */
  public static FileLeaseRepository open(Path directory) {
    return open(directory, FileOptions.defaults());
  }

  /**
   * Opens the repository in {@code directory}, creating the directory if missing.
   *
   * <p>With {@link FileOptions#readOnly()}, opens an existing directory for reading only ({@link
   * #load}, {@link #loadAll}), which needs no write access: the directory is neither created nor
   * probed, so that records can be read on a read-only file system or in another user's directory.
   * A save or a key lock then fails as the file system refuses it, with {@link
   * LeaseRepositoryFailure}.
   *
   * @param directory the directory of the record files
   * @param options the write-lock wait budget, and whether to only read
   * @return the repository
   * @throws LeaseRepositoryFailure if the directory cannot be created, is not a directory, or is
   *     not writable; read-only, if it does not exist or is not a directory
   * @throws NullPointerException if an argument is null
   */
  public static FileLeaseRepository open(Path directory, FileOptions options) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    Path real =
        options.readOnly() ? LeaseDirectory.existing(directory) : LeaseDirectory.prepare(directory);
    DirectoryIdentity identity;
    try {
      identity = DirectoryIdentity.of(real, "lease directory");
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot open lease directory " + real + ": " + LeaseDirectory.describe(e, real), e);
    }
    return new FileLeaseRepository(real, options, identity);
  }

  /**
   * Returns the directory of the record files.
   *
   * @return the absolute directory
   */
  public Path directory() {
    return directory;
  }

  /**
   * Returns the options this repository was opened with.
   *
   * @return the options
   */
  public FileOptions options() {
    return options;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads the key's record file without a lock.
   *
   * @throws LeaseRepositoryFailure if the file cannot be read, is corrupt, holds another key, or
   *     was written by a newer format; the message names the file
   */
  @Override
  public Optional<LeaseSnapshot> load(String key) {
    RecordNames names = new RecordNames(directory, LeaseKeys.requireValid(key));
    identity.requireSame();
    return read(key, names.record());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads every record file of the directory without a lock. A record that sits under another
   * key's file name (copied or renamed by hand) is reported, not listed.
   *
   * @throws LeaseRepositoryFailure if the directory or a record cannot be read, or a record is
   *     corrupt; the message names the file
   */
  @Override
  public List<LeaseSnapshot> loadAll() {
    identity.requireSame();
    List<LeaseSnapshot> all = new ArrayList<>();
    try (DirectoryStream<Path> records = Files.newDirectoryStream(directory, "*.json")) {
      for (Path file : records) {
        readListed(file).ifPresent(all::add);
      }
    } catch (IOException | DirectoryIteratorException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot list lease records in " + directory + ": " + e.getMessage(), e);
    }
    return all;
  }

  private Optional<LeaseSnapshot> readListed(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException removedMeanwhile) {
      return Optional.empty();
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot read lease record " + file + ": " + LeaseDirectory.describe(e, file), e);
    }
    LeaseSnapshot snapshot = codec.decodeListed(file, bytes);
    Path expected = new RecordNames(directory, snapshot.key()).record();
    if (!expected.getFileName().equals(file.getFileName())) {
      throw new LeaseRepositoryFailure(
          snapshot.key(),
          "lease record "
              + file
              + " belongs to key '"
              + snapshot.key()
              + "', whose file is "
              + expected.getFileName()
              + "; it was copied or renamed by hand",
          null);
    }
    return Optional.of(snapshot);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Waits at most {@link FileOptions#writeLockWait()} for the key's write lock. An interrupt of
   * the waiting thread ends the wait with a {@link LeaseRepositoryFailure}, and the thread's
   * interrupt flag is set again. Every write is synced (file and directory), whatever its intent: a
   * rename cannot be made durable later in bulk, as a database's log can.
   *
   * @throws LeaseRepositoryFailure if the write lock was not had within the budget, the stored
   *     record is corrupt, or the file cannot be written (read-only, full, no permission); the
   *     message names the file
   */
  @Override
  public void save(LeaseWrite write) {
    String key = Objects.requireNonNull(write, "write").key();
    RecordNames names = new RecordNames(directory, key);
    identity.requireSame();
    FileRangeLock.Held writeLock = writeLock(key, names);
    try {
      identity.requireSame(); // replaced while we waited: the lock is on the new directory's file
      compareAndWrite(key, names, write);
    } finally {
      writeLock.close();
    }
    if (write.intent() == LeaseWrite.Intent.RELEASE) {
      watches.wake(RecordNames.baseName(key));
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A watch wakes at once on a release saved through this repository, and, through the operating
   * system's file notifications on the directory (inotify on Linux), on every write of the key's
   * record file by any process of the machine: the waiter then reads the record again. The first
   * watch starts one daemon thread that reads the notifications, given up 30 s after the last watch
   * closed or on {@link #close()}. Where the platform has no native file notifications, or the
   * directory cannot be watched, there is no watch and waiters poll.
   */
  @Override
  public Optional<KeyWatch> watchKey(String key) {
    KeyWatch watch = watches.open(RecordNames.baseName(LeaseKeys.requireValid(key)));
    if (!changes.watching()) {
      watch.close();
      return Optional.empty();
    }
    return Optional.of(watch);
  }

  /** Runs under the key's write lock, which every writer of this directory takes. */
  private void compareAndWrite(String key, RecordNames names, LeaseWrite write) {
    Optional<LeaseSnapshot> stored = read(key, names.record());
    long actual = stored.map(LeaseSnapshot::revision).orElse(0L);
    if (actual != write.expectedRevision()
        || (stored.isPresent() && !write.mayReplace(stored.get()))) {
      throw new RevisionConflict(key, write.expectedRevision(), actual);
    }
    byte[] content = codec.encode(write.snapshot());
    try {
      DurableFiles.replace(names.record(), names.temporary(), content);
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          key,
          "cannot save lease '"
              + key
              + "' to "
              + names.record()
              + ": "
              + LeaseDirectory.describe(e, names.record()),
          e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The key lock is a lock on the key's {@code .fence.lock} file, distinct from its write lock.
   * The wait has no time limit; interrupt the thread to end it.
   *
   * @throws LeaseRepositoryFailure if the key lock's lock file cannot be created or locked
   */
  @Override
  public KeyLock lockKey(String key) throws InterruptedException {
    Path file = new RecordNames(directory, LeaseKeys.requireValid(key)).keyLockFile();
    identity.requireSame();
    FileRangeLock.Held held;
    try {
      held = FileRangeLock.of(file, 0, 1).lock();
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(
          key, "cannot take the key lock of lease '" + key + "': " + e.getMessage(), e);
    }
    return new KeyLock() {
      @Override
      public boolean isHeld() {
        return held.isHeld();
      }

      @Override
      public void close() {
        held.close();
      }
    };
  }

  private FileRangeLock.Held writeLock(String key, RecordNames names) {
    try {
      return FileRangeLock.of(names.writeLock(), 0, 1).lock(options.writeLockWait());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseRepositoryFailure(
          key,
          "interrupted while waiting for the write lock "
              + names.writeLock()
              + " of lease '"
              + key
              + "'; nothing was written",
          e);
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(
          key, "cannot save lease '" + key + "': " + e.getMessage(), e);
    }
  }

  private Optional<LeaseSnapshot> read(String key, Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          key, "cannot read lease record " + file + ": " + LeaseDirectory.describe(e, file), e);
    }
    return Optional.of(codec.decode(key, file, bytes));
  }

  /** Lets go of the directory this repository holds open to know it by its identity. */
  @Override
  public void close() {
    try {
      changes.close();
    } finally {
      identity.close();
    }
  }

  @Override
  public String toString() {
    return "FileLeaseRepository[" + directory + "]";
  }
}
