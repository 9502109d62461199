/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.LockFileRegistry.Range;
import dev.rivus.agentkit.lease.support.LockFileRegistry.Registration;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * An exclusive lock on a byte range of a lock file, held by at most one thread in all the processes
 * of a machine that use the file. Adapters use it for per-key write locks and key locks.
 *
 * <p>Across processes it is an operating-system lock ({@link
 * java.nio.channels.FileChannel#tryLock(long, long, boolean)}), so the system releases it when the
 * holding process dies, even by {@code kill -9}. Within one JVM, threads and repository instances
 * that lock the same file and range queue on a fair semaphore first, so they never meet {@link
 * java.nio.channels.OverlappingFileLockException}. The wait for the operating-system lock polls
 * with a short jittered backoff (about 0.5 ms, doubling up to about 10 ms), since the system offers
 * no fair, interruptible blocking wait.
 *
 * <p>The lock file is created when missing and never deleted: deleting it while another process
 * waits on it would let two processes lock two different files of the same name. Should someone
 * else delete or replace it, a held lock says so ({@link Held#isHeld()} turns false) and the next
 * lock opens the new file. Nothing else in the process may open the lock file: on POSIX systems
 * closing any descriptor of a file drops all of the process's locks on it. Locks on network file
 * systems are only as reliable as the server's lock manager.
 *
 * <p>Instances are immutable and thread-safe; the {@link Held} lock they return may be released
 * from any thread.
 */
public final class FileRangeLock {

  private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
  private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final Path file;
  private final Range range;

  private FileRangeLock(Path file, Range range) {
    this.file = file;
    this.range = range;
  }

  /**
   * Describes the lock on {@code size} bytes of {@code file} from {@code position}. Nothing is
   * opened or locked until {@link #lock()} or {@link #lock(Duration)}.
   *
   * @param file the lock file; its directory must exist when locking, the file itself is created
   *     then
   * @param position the first byte of the range; the range may lie beyond the end of the file
   * @param size the number of bytes in the range
   * @return the lock description
   * @throws NullPointerException if {@code file} is null
   * @throws IllegalArgumentException if {@code position} is negative, {@code size} is not positive,
   *     or the range ends beyond {@link Long#MAX_VALUE}
   */
  public static FileRangeLock of(Path file, long position, long size) {
    Objects.requireNonNull(file, "file");
    if (position < 0 || size <= 0 || position > Long.MAX_VALUE - size) {
      throw new IllegalArgumentException(
          "byte range must start at 0 or later, hold at least one byte and end by Long.MAX_VALUE;"
              + " was position "
              + position
              + ", size "
              + size);
    }
    return new FileRangeLock(file, new Range(position, size));
  }

  /**
   * Describes the lock on the one byte of {@code file} picked by a 64-bit hash, for adapters that
   * put the locks of many keys in one side file: the byte at {@code hash >>> 2}. Two keys share a
   * byte only when their hashes agree in the upper 62 bits; they then merely wait for each other.
   *
   * @param file the lock file
   * @param hash a 64-bit hash of the key, for example the first 8 bytes of its SHA-256
   * @return the lock description
   * @throws NullPointerException if {@code file} is null
   */
  public static FileRangeLock ofHash(Path file, long hash) {
    return of(file, hash >>> 2, 1);
  }

  /**
   * Returns the lock file.
   *
   * @return the file as given
   */
  public Path file() {
    return file;
  }

  /**
   * Returns the first byte of the range.
   *
   * @return the position
   */
  public long position() {
    return range.position();
  }

  /**
   * Returns the number of bytes in the range.
   *
   * @return the size
   */
  public long size() {
    return range.size();
  }

  /**
   * Waits, without a time limit, until the calling thread holds the lock. Use it for key locks,
   * whose wait a caller ends by interrupting the thread.
   *
   * @return the held lock; close it to release
   * @throws InterruptedException if the thread was interrupted before or while waiting; the lock is
   *     then not held
   * @throws LeaseRepositoryFailure if the lock file cannot be created, opened or locked
   */
  public Held lock() throws InterruptedException {
    return acquire(-1);
  }

  /**
   * Waits at most {@code maxWait} until the calling thread holds the lock. Use it for write locks,
   * whose holders keep the lock only for a short write.
   *
   * @param maxWait the wait budget; zero means a single try
   * @return the held lock; close it to release
   * @throws LeaseRepositoryFailure if the budget was spent (the message names the file and how long
   *     the thread waited), or the lock file cannot be created, opened or locked
   * @throws InterruptedException if the thread was interrupted before or while waiting; the lock is
   *     then not held
   * @throws NullPointerException if {@code maxWait} is null
   * @throws IllegalArgumentException if {@code maxWait} is negative
   */
  public Held lock(Duration maxWait) throws InterruptedException {
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must be zero or positive, was " + maxWait);
    }
    // Never negative here (refused above), which acquire would take for no limit at all.
    return acquire(Durations.saturatedNanos(maxWait));
  }

  /** Waits for the lock; a negative budget means no limit. */
  private Held acquire(long budgetNanos) throws InterruptedException {
    long start = System.nanoTime();
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted before locking " + describe());
    }
    Registration registration = LockFileRegistry.enter(realPath(), range);
    boolean acquired = false;
    try {
      if (budgetNanos < 0) {
        registration.slot().permit.acquire();
      } else if (!registration.slot().permit.tryAcquire(budgetNanos, TimeUnit.NANOSECONDS)) {
        throw timedOut(start, "another thread of this process");
      }
      try {
        FileLock lock = pollOperatingSystemLock(registration, start, budgetNanos);
        acquired = true;
        return new Held(registration, lock);
      } finally {
        if (!acquired) {
          registration.slot().permit.release();
        }
      }
    } finally {
      if (!acquired) {
        LockFileRegistry.leave(registration);
      }
    }
  }

  private FileLock pollOperatingSystemLock(Registration registration, long start, long budgetNanos)
      throws InterruptedException {
    long pause = FIRST_PAUSE_NANOS;
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while waiting for " + describe());
      }
      FileLock lock = tryOnce(registration);
      if (lock != null) {
        return lock;
      }
      long waited = System.nanoTime() - start;
      if (budgetNanos >= 0 && waited >= budgetNanos) {
        throw timedOut(start, "another process");
      }
      long sleep = pause / 2 + ThreadLocalRandom.current().nextLong(pause);
      if (budgetNanos >= 0) {
        sleep = Math.min(sleep, budgetNanos - waited);
      }
      TimeUnit.NANOSECONDS.sleep(sleep);
      pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
    }
  }

  private @Nullable FileLock tryOnce(Registration registration) throws InterruptedException {
    try {
      return registration.file().tryLock(range);
    } catch (ClosedByInterruptException e) {
      // The JDK's tryLock does not block and is not interruptible today; should a JDK make it so,
      // an interrupt closes the channel, and the thread's wait ends as interrupted waits do.
      InterruptedException interrupted =
          new InterruptedException("interrupted while waiting for " + describe());
      interrupted.initCause(e);
      throw interrupted;
    } catch (ClosedChannelException e) {
      return null; // closed under us; the next try opens the file again
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(null, "cannot lock " + describe() + ": " + describe(e), e);
    }
  }

  private Path realPath() {
    Path absolute = file.toAbsolutePath().normalize();
    Path parent = absolute.getParent();
    Path name = absolute.getFileName();
    if (parent == null || name == null) {
      throw new LeaseRepositoryFailure(
          null, "lock file " + file + " names no file in a directory", null);
    }
    try {
      Path real = parent.toRealPath().resolve(name);
      return Files.isSymbolicLink(real) ? real.toRealPath() : real;
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null,
          "cannot open lock file "
              + absolute
              + ": its directory cannot be resolved ("
              + describe(e)
              + ")",
          e);
    }
  }

  private LeaseRepositoryFailure timedOut(long start, String holder) {
    double waited = (System.nanoTime() - start) / 1e9;
    return new LeaseRepositoryFailure(
        null,
        String.format(
            Locale.ROOT,
            "timed out after %.3f s waiting for %s; %s holds it",
            waited,
            describe(),
            holder),
        null);
  }

  private String describe() {
    return "the lock on bytes ["
        + range.position()
        + ", "
        + (range.position() + range.size())
        + ") of "
        + file.toAbsolutePath();
  }

  private static String describe(IOException e) {
    String kind = e.getClass().getSimpleName();
    return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
  }

  @Override
  public String toString() {
    return "FileRangeLock[" + file + " bytes " + range.position() + "+" + range.size() + "]";
  }

  /**
   * A held file range lock. Closing it releases the lock, from any thread; closing it again does
   * nothing. If the process dies, the operating system releases it.
   */
  public static final class Held implements AutoCloseable {

    private final Registration registration;
    private final FileLock lock;
    private final AtomicBoolean released = new AtomicBoolean();

    private Held(Registration registration, FileLock lock) {
      this.registration = registration;
      this.lock = lock;
    }

    /**
     * Tells whether this lock is still held and still excludes others: not released, its
     * operating-system lock valid, and its lock file still the file at its path (a lock file
     * deleted or replaced meanwhile is locked afresh by others, so a lock on the old one excludes
     * nobody). Reads the file's attributes.
     *
     * @return {@code true} while held
     */
    public boolean isHeld() {
      return !released.get() && registration.file().stillGuards(lock);
    }

    /** Releases the lock; does nothing if it was already released. */
    @Override
    public void close() {
      if (!released.compareAndSet(false, true)) {
        return;
      }
      try {
        registration.file().release(lock);
      } finally {
        registration.slot().permit.release();
        LockFileRegistry.leave(registration);
      }
    }
  }
}
