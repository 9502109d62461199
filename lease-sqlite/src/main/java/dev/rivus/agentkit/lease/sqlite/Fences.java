package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileRangeLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The per-key fences of one database: an operating-system lock on one byte of {@code
 * <database>.fence}, chosen by a 64-bit hash of the key ({@link FileRangeLock#ofHash}), behind a
 * fair in-process lock. A fence is held only while its lock is, and while the fence file at the
 * path is still the file it locked: a fence file deleted or replaced (by {@code rm leases.db*})
 * lets a process that opens the database anew lock another file under the same name, so the fence
 * no longer excludes it. Thread-safe.
 */
final class Fences {

  /** The identity of a fence file that is not there. */
  private static final Object MISSING = new Object();

  /** The identity of a fence file that is there, where the file system gives no file key. */
  private static final Object NO_KEY = new Object();

  private final Path fenceFile;
  private final Database database;

  Fences(Path fenceFile, Database database) {
    this.fenceFile = fenceFile;
    this.database = database;
  }

  Path file() {
    return fenceFile;
  }

  /**
   * Takes the key's fence, after and again before returning a check of the database's identity (the
   * wait may be long, and the store may be lost meanwhile).
   */
  LeaseRepository.Fence lock(String key) throws InterruptedException {
    database.checkIdentity();
    FileRangeLock.Held held;
    try {
      held = FileRangeLock.ofHash(fenceFile, KeyBytes.hash64(key)).lock();
    } catch (LeaseRepositoryFailure e) {
      throw new LeaseRepositoryFailure(
          key, "cannot take the fence of lease '" + key + "': " + e.getMessage(), e);
    }
    try {
      database.checkIdentity();
      return new Fence(held, fenceFile, identityOf(fenceFile));
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

  /** One held fence. */
  private static final class Fence implements LeaseRepository.Fence {
    private final FileRangeLock.Held held;
    private final Path file;
    private final Object locked;

    Fence(FileRangeLock.Held held, Path file, Object locked) {
      this.held = held;
      this.file = file;
      this.locked = locked;
    }

    /**
     * {@inheritDoc}
     *
     * <p>One {@code stat} of the fence file. Without file keys (Windows), only a deleted fence file
     * is noticed.
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
