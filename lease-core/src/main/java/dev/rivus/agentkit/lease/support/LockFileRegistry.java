/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;

/**
 * The process-wide table of lock files that {@link FileRangeLock} uses: per file, the one channel
 * through which this process takes its operating-system locks on it; per byte range, a fair
 * semaphore that lets one thread of this process at a time try for that range.
 *
 * <p>This is the one piece of static state in the library, and it has to be. The operating system's
 * lock table is itself per process: POSIX {@code fcntl} locks belong to the process, not to a
 * thread or a descriptor, and closing <em>any</em> descriptor of a file drops <em>all</em> of the
 * process's locks on it. The JDK mirrors this with a JVM-wide table that throws {@link
 * OverlappingFileLockException} when a second channel asks for a range the JVM already holds. Two
 * repository instances on one directory, or two adapters sharing a side file, must therefore
 * coordinate through something as wide as the process; an instance field could not see the other
 * instance's locks. Entries are reference-counted and removed when no thread holds or waits for
 * them, so the table does not grow with the number of keys ever locked.
 */
final class LockFileRegistry {

  private static final System.Logger LOG = System.getLogger(FileRangeLock.class.getName());

  /**
   * Guards {@link #FILES} and the counters in it; taken before a file's own monitor, never after.
   */
  private static final Object TABLE_LOCK = new Object();

  private static final Map<Path, LockedFile> FILES = new HashMap<>();

  private LockFileRegistry() {}

  /** Registers a thread that is about to wait for {@code range} of {@code realPath}. */
  static Registration enter(Path realPath, Range range) {
    synchronized (TABLE_LOCK) {
      LockedFile file = FILES.computeIfAbsent(realPath, LockedFile::new);
      file.users++;
      Slot slot = file.slots.computeIfAbsent(range, r -> new Slot());
      slot.users++;
      return new Registration(file, range, slot);
    }
  }

  /**
   * Unregisters a thread that no longer holds nor waits for its range. The last one out of a file
   * closes its channel; this happens under the table lock, so a channel opened for a later user of
   * the same file can never be dropped by the close of an earlier one.
   */
  static void leave(Registration registration) {
    synchronized (TABLE_LOCK) {
      LockedFile file = registration.file();
      if (--registration.slot().users == 0) {
        file.slots.remove(registration.range());
      }
      if (--file.users == 0) {
        FILES.remove(file.path);
        file.closeChannel();
      }
    }
  }

  /** Whether a thread of this process holds or waits for a range of the file (for tests). */
  static boolean isRegistered(Path realPath) {
    synchronized (TABLE_LOCK) {
      return FILES.containsKey(realPath);
    }
  }

  /** A byte range of a lock file. */
  record Range(long position, long size) {}

  /** One thread's place in the table, from {@link #enter} to {@link #leave}. */
  record Registration(LockedFile file, Range range, Slot slot) {}

  /**
   * The fair in-process gate of one range: only the thread holding the permit tries the OS lock.
   */
  static final class Slot {
    final Semaphore permit = new Semaphore(1, true);
    int users; // guarded by TABLE_LOCK
  }

  /**
   * One lock file and the single channel this process uses for its locks on it. The file is known
   * by its identity ({@link BasicFileAttributes#fileKey()}, device and inode on Unix), read when
   * the channel is opened: if the file at the path is deleted or replaced, locks taken through the
   * old channel exclude nobody any more (others lock the new file), so they are reported as no
   * longer held, and the next lock opens the new file.
   */
  static final class LockedFile {
    final Path path;
    final Map<Range, Slot> slots = new HashMap<>(); // guarded by TABLE_LOCK
    int users; // guarded by TABLE_LOCK
    private @Nullable FileChannel channel; // guarded by this
    private @Nullable Object channelKey; // guarded by this
    private int held; // guarded by this

    LockedFile(Path path) {
      this.path = path;
    }

    /**
     * Tries once for the OS lock on a range, creating the lock file if needed.
     *
     * @return the lock, or {@code null} if another process (or a channel outside this table) has it
     * @throws ClosedChannelException if the channel was closed under us
     * @throws IOException if the lock file cannot be opened or locked
     */
    synchronized @Nullable FileLock tryLock(Range range) throws IOException {
      FileChannel open = channel;
      if (open != null && (!open.isOpen() || !isStillAtPath(channelKey))) {
        if (held > 0) {
          LOG.log(
              Level.WARNING,
              "the lock file "
                  + path
                  + " was deleted, replaced or closed while "
                  + held
                  + " range(s) were held through it; they no longer exclude anyone");
        }
        closeChannel();
        open = null;
      }
      if (open == null) {
        open =
            FileChannel.open(
                path,
                EnumSet.of(
                    StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                FileModes.file());
        channel = open;
        channelKey = fileKey(path);
      }
      FileLock lock;
      try {
        lock = open.tryLock(range.position(), range.size(), false);
      } catch (OverlappingFileLockException e) {
        // A channel of this JVM outside the table holds the range (the same file reached through a
        // hard link, or code that locks it directly): that is contention like any other.
        return null;
      }
      if (lock != null) {
        held++;
      }
      return lock;
    }

    /**
     * Whether a lock taken through this file's channel still excludes others: the channel is the
     * one open now, and the file at the path is still the one it opened.
     */
    synchronized boolean stillGuards(FileLock lock) {
      return lock.isValid() && lock.channel() == channel && isStillAtPath(channelKey);
    }

    private boolean isStillAtPath(@Nullable Object key) {
      if (key == null) {
        return true; // this file system reports no identity: nothing to compare
      }
      try {
        return key.equals(fileKey(path));
      } catch (IOException gone) {
        return false;
      }
    }

    private static @Nullable Object fileKey(Path path) throws IOException {
      return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    synchronized void release(FileLock lock) {
      if (lock.channel() == channel) {
        held--;
      }
      try {
        lock.release();
      } catch (ClosedChannelException e) {
        // The channel is gone, and with it every lock taken through it: nothing is left to release.
      } catch (IOException e) {
        LOG.log(
            Level.WARNING,
            "could not release the lock on bytes ["
                + lock.position()
                + ", "
                + (lock.position() + lock.size())
                + ") of "
                + path
                + "; it is released when the file's last user leaves",
            e);
      }
    }

    synchronized void closeChannel() {
      FileChannel open = channel;
      channel = null;
      channelKey = null;
      held = 0;
      if (open == null) {
        return;
      }
      try {
        open.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "could not close lock file " + path, e);
      }
    }
  }
}
