/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The key locks of one database: an operating-system lock on one byte of the key lock file {@code
 * <database>.fence} ({@link StorePath#keyLockFile()}), chosen by a 64-bit hash of the key ({@link
 * FileRangeLock#ofHash}), behind a fair in-process queue for the same byte. A key lock is held only
 * while its lock is, and while the key lock file at the path is still the file it locked: a key
 * lock file deleted or replaced (by {@code rm leases.db*}) lets a process that opens the database
 * anew lock another file under the same name, so the key lock no longer excludes it. Thread-safe.
 */
final class KeyLocks {

  /** The identity of a key lock file that is not there. */
  private static final Object MISSING = new Object();

  /** The identity of a key lock file that is there, where the file system gives no file key. */
  private static final Object NO_KEY = new Object();

  private final Path keyLockFile;
  private final Database database;

  KeyLocks(Path keyLockFile, Database database) {
    this.keyLockFile = keyLockFile;
    this.database = database;
  }

  Path file() {
    return keyLockFile;
  }

  /**
   * Takes the key lock, waiting without a time limit (an interrupt ends the wait); checks the
   * database's identity before the wait and again after it, before returning (the wait may be long,
   * and the store may be lost meanwhile).
   */
  LeaseRepository.KeyLock lock(String key) throws InterruptedException {
    database.checkIdentity();
    FileRangeLock.Held held;
    try {
      held = FileRangeLock.ofHash(keyLockFile, KeyBytes.hash64(key)).lock();
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(
          key, "cannot take the key lock of lease '" + key + "': " + e.getMessage(), e);
    }
    try {
      database.checkIdentity();
      return new KeyLock(held, keyLockFile, identityOf(keyLockFile));
    } catch (RuntimeException e) {
      held.close();
      throw e;
    }
  }

  /** The identity of the file at the path: its file key, {@link #NO_KEY} or {@link #MISSING}. */
  private static Object identityOf(Path file) {
    try {
      Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
      return key != null ? key : NO_KEY;
    } catch (IOException gone) {
      return MISSING;
    }
  }

  /** One held key lock. */
  private static final class KeyLock implements LeaseRepository.KeyLock {
    private final FileRangeLock.Held held;
    private final Path file;
    private final Object locked;

    KeyLock(FileRangeLock.Held held, Path file, Object locked) {
      this.held = held;
      this.file = file;
      this.locked = locked;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the key lock file's attributes twice: in the held lock's own check ({@link
     * FileRangeLock.Held#isHeld()}) and here. Without file keys (Windows), only a deleted key lock
     * file is noticed.
     */
    @Override
    public boolean isHeld() {
      return held.isHeld() && locked != MISSING && locked.equals(identityOf(file));
    }

    @Override
    public void close() {
      held.close();
    }
  }
}
