package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepository.Fence;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.KeyedLocks;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The per-key fence: an exclusive one-byte lock in a side file next to the database, at the byte picked
 * by a 64-bit hash of the key, with an in-JVM fair lock per byte in front of it.
 *
 * <p>Across processes it is an operating-system record lock, so the system releases it when the holder
 * dies, even by {@code kill -9}. It lives in its own file, never in the database: a fence held during
 * long fenced work never delays a save, so the holder's heartbeat goes on. Two keys share a byte only
 * when their hashes agree in 62 bits; they then merely wait for each other.
 *
 * <p>Within one JVM, POSIX locks belong to the process, and closing any descriptor of the file drops
 * all of them; so every repository of this JVM on the same fence file shares one channel and one set
 * of per-byte locks (the only static state of this module, as wide as the operating system's own lock
 * table). The wait for the operating-system lock polls {@link FileChannel#tryLock}, which neither
 * blocks nor reacts to interrupts, with a short jittered backoff: {@link FileChannel#lock} would close
 * the shared channel, and so drop every fence of the process, if a waiting thread were interrupted.
 */
final class FenceFile implements AutoCloseable {

  private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
  private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final Map<Path, Shared> OPEN = new HashMap<>(); // guarded by itself

  private final Path path;
  private final Shared shared;
  private final AtomicBoolean closed = new AtomicBoolean();

  private FenceFile(Path path, Shared shared) {
    this.path = path;
    this.shared = shared;
  }

  /** Opens (creating if needed) the fence file, sharing its channel with this JVM's other users. */
  static FenceFile open(Path path) {
    synchronized (OPEN) {
      Shared shared = OPEN.get(path);
      if (shared == null) {
        try {
          FileChannel channel =
              FileChannel.open(
                  path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
          shared = new Shared(channel);
        } catch (IOException e) {
          throw new LeaseRepositoryFailure(
              null, "cannot open the fence file " + path + ": " + e, e);
        }
        OPEN.put(path, shared);
      }
      shared.users++;
      return new FenceFile(path, shared);
    }
  }

  Path path() {
    return path;
  }

  /** Waits without a time limit for the key's fence; an interrupt ends the wait. */
  Fence lock(String key) throws InterruptedException {
    long position = KeyBytes.hash64(key) >>> 2;
    KeyedLocks.Held inJvm = shared.bytes.lock(position);
    try {
      FileLock lock = pollOperatingSystemLock(key, position);
      return new HeldFence(inJvm, lock);
    } catch (InterruptedException | RuntimeException e) {
      inJvm.close();
      throw e;
    }
  }

  private FileLock pollOperatingSystemLock(String key, long position) throws InterruptedException {
    long pause = FIRST_PAUSE_NANOS;
    while (true) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while waiting for the fence of '" + key + "'");
      }
      FileLock lock = tryOnce(key, position);
      if (lock != null) {
        return lock;
      }
      TimeUnit.NANOSECONDS.sleep(pause / 2 + ThreadLocalRandom.current().nextLong(pause));
      pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
    }
  }

  private @Nullable FileLock tryOnce(String key, long position) {
    try {
      return shared.channel.tryLock(position, 1, false);
    } catch (OverlappingFileLockException e) {
      return null; // another channel of this JVM on the same file holds the byte: contention
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          key, "cannot lock the fence of '" + key + "' in " + path + ": " + e, e);
    }
  }

  /** Leaves the shared channel; the last user of this JVM closes it. Held fences stay valid until then. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    synchronized (OPEN) {
      if (--shared.users == 0 && shared.bytes.size() == 0) {
        OPEN.remove(path);
        try {
          shared.channel.close();
        } catch (IOException ignored) {
          // the descriptor is gone either way
        }
      }
    }
  }

  /** The channel and per-byte locks that all users of one fence file in this JVM share. */
  private static final class Shared {
    final FileChannel channel;
    final KeyedLocks<Long> bytes = new KeyedLocks<>();
    int users; // guarded by OPEN

    Shared(FileChannel channel) {
      this.channel = channel;
    }
  }

  private static final class HeldFence implements Fence {
    private final KeyedLocks.Held inJvm;
    private final FileLock lock;
    private final AtomicBoolean released = new AtomicBoolean();

    HeldFence(KeyedLocks.Held inJvm, FileLock lock) {
      this.inJvm = inJvm;
      this.lock = lock;
    }

    @Override
    public void close() {
      if (!released.compareAndSet(false, true)) {
        return;
      }
      try {
        lock.release();
      } catch (IOException ignored) {
        // the channel is closed, and with it the lock
      } finally {
        inJvm.close();
      }
    }
  }
}
