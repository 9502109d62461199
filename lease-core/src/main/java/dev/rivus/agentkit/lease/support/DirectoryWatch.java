/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Wakes a store's {@link KeyWatches} when files of its directory change, for stores that other
 * processes of the machine write (a SQLite file, a directory of record files): the operating
 * system's file notifications ({@link WatchService}; inotify on Linux) are read by one daemon
 * thread, which hands the name of each created, changed or deleted file to the store's {@code
 * changed} callback (which wakes the watches it concerns), wakes every watch again shortly after
 * the last change (which may be told before it can be read), and wakes every watch when notices
 * were lost (an overflow) or the directory is gone.
 *
 * <p>Started by {@link #watching()} when a watch opens: the directory is registered before it
 * returns, so a change after the watch opened is seen. It stops, giving its notification handle
 * back, once no watch has been open for {@link #LINGER_NANOS}, or on {@link #close()}. Where the
 * platform has no native file notifications (the JDK then polls the directory every few seconds,
 * slower than a waiter polling the store), or the directory cannot be registered, {@link
 * #watching()} says no and the store offers no watch.
 *
 * <p>Thread-safe. The callback runs on the watching thread and must only wake watches.
 */
public final class DirectoryWatch implements AutoCloseable {

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /**
   * After the last change, every watch is woken again this long after it: a change may be told
   * before it can be read (SQLite writes a commit to its WAL, and a moment later to the index in
   * shared memory that makes readers see it, which the system does not tell of).
   */
  private static final long[] SETTLE_NANOS = {
    TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.MILLISECONDS.toNanos(100)
  };

  /** How long the notification handle is kept after the last watch closed, for the next one. */
  private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final Path directory;
  private final KeyWatches watches;
  private final Consumer<Path> changed;
  private final String threadName;

  private @Nullable WatchService service; // guarded by this
  private boolean closed; // guarded by this
  private boolean unsupported; // guarded by this

  /**
   * Creates a watch of a directory, not yet started.
   *
   * @param directory the store's directory, its real path
   * @param watches the store's watches, all woken when notices were lost
   * @param changed told the name (relative to the directory) of each file that changed
   * @param threadName the name of the watching thread
   */
  public DirectoryWatch(
      Path directory, KeyWatches watches, Consumer<Path> changed, String threadName) {
    this.directory = directory;
    this.watches = watches;
    this.changed = changed;
    this.threadName = threadName;
  }

  /**
   * Starts watching the directory if it is not watched yet: call it after opening a watch.
   *
   * @return {@code true} if the directory is watched; {@code false} if it cannot be (no native file
   *     notifications, a directory that cannot be registered, or this watch closed), and the store
   *     should then offer no watch
   */
  public synchronized boolean watching() {
    if (closed || unsupported) {
      return false;
    }
    if (service != null) {
      return true;
    }
    WatchService opened = null;
    try {
      opened = directory.getFileSystem().newWatchService();
      if (opened.getClass().getName().contains("Polling")) {
        unsupported = true; // the JDK's fallback: a scan every few seconds
        opened.close();
        return false;
      }
      directory.register(
          opened,
          StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    } catch (IOException | UnsupportedOperationException cannot) {
      closeQuietly(opened);
      return false;
    }
    WatchService started = opened;
    service = started;
    Thread thread = new Thread(() -> run(started), threadName);
    thread.setDaemon(true);
    thread.start();
    return true;
  }

  /** Stops watching; wakes every watch, since no change will be told from now on. */
  @Override
  public void close() {
    WatchService open;
    synchronized (this) {
      closed = true;
      open = service;
      service = null;
    }
    closeQuietly(open);
    watches.wakeAll();
  }

  /** Gives the service up if no watch is open; checked under the lock {@link #watching} takes. */
  private synchronized boolean stopIfIdle(WatchService running) {
    if (service == running && !watches.isEmpty()) {
      return false;
    }
    if (service == running) {
      service = null;
    }
    closeQuietly(running);
    return true;
  }

  private synchronized void lost(WatchService running) {
    if (service == running) {
      service = null;
    }
    closeQuietly(running);
  }

  private void run(WatchService running) {
    long idleSince = 0;
    boolean idle = false;
    long lastChange = 0;
    int settled = SETTLE_NANOS.length; // none due
    try {
      while (true) {
        long timeout = POLL_NANOS;
        if (settled < SETTLE_NANOS.length) {
          timeout = Math.max(0, lastChange + SETTLE_NANOS[settled] - System.nanoTime());
        }
        WatchKey key = running.poll(timeout, TimeUnit.NANOSECONDS);
        if (key != null) {
          for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW
                || !(event.context() instanceof Path)) {
              watches.wakeAll();
            } else {
              changed.accept((Path) event.context());
            }
            lastChange = System.nanoTime();
            settled = 0;
          }
          if (!key.reset()) {
            lost(running); // the directory is gone or was replaced: a store lost
            return;
          }
        }
        long now = System.nanoTime();
        while (settled < SETTLE_NANOS.length && now - lastChange >= SETTLE_NANOS[settled]) {
          watches.wakeAll();
          settled++;
        }
        if (watches.isEmpty()) {
          if (!idle) {
            idle = true;
            idleSince = now;
          } else if (now - idleSince > LINGER_NANOS && stopIfIdle(running)) {
            return;
          }
        } else {
          idle = false;
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException stopped) {
      // closed
    } finally {
      watches.wakeAll();
    }
  }

  private static void closeQuietly(@Nullable WatchService service) {
    if (service != null) {
      try {
        service.close();
      } catch (IOException ignored) {
        // the handle is given up either way
      }
    }
  }

  @Override
  public String toString() {
    return "DirectoryWatch[" + directory + "]";
  }
}
