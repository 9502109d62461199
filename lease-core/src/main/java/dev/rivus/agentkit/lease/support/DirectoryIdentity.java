/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import dev.rivus.agentkit.lease.StoreLost;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The identity of a store that is a directory on the local file system (a lease directory), as the
 * operating system tells it, for repositories that must notice when their store is deleted or
 * replaced under them.
 *
 * <p>When created, it opens the directory read-only and keeps it open until closed: an open
 * directory keeps its inode allocated, so its number cannot be given to a new directory while the
 * repository runs, and the identity ({@link BasicFileAttributes#fileKey()}: device and inode on
 * Unix) stays exact. {@link #requireSame()} compares the directory now at the path with it. On
 * systems that report no file key (Windows), nothing can be compared, and only a directory that is
 * missing is noticed.
 *
 * <p>Only for directories: holding a plain file open this way would be wrong for a file the process
 * locks (closing any descriptor of a file drops all of a process's POSIX locks on it), so a
 * database file needs an anchor of its own kind (the SQLite repository keeps a connection).
 *
 * <p>Once the store was found lost, every later check fails too: a new store at the same path is
 * another store. Thread-safe.
 */
public final class DirectoryIdentity implements AutoCloseable {

  private final Path path;
  private final String description;
  private final @Nullable FileChannel anchor;
  private final @Nullable Object fileKey;
  private volatile @Nullable String lostBecause;

  private DirectoryIdentity(
      Path path, String description, @Nullable FileChannel anchor, @Nullable Object fileKey) {
    this.path = path;
    this.description = description;
    this.anchor = anchor;
    this.fileKey = fileKey;
  }

  /**
   * Takes the identity of a directory that exists now, and holds it open.
   *
   * @param path the directory's real path (links already resolved)
   * @param description what the store is, for messages: "lease directory"
   * @return the identity; close it when the repository closes
   * @throws IOException if the directory cannot be read
   * @throws NullPointerException if an argument is null
   */
  public static DirectoryIdentity of(Path path, String description) throws IOException {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(description, "description");
    FileChannel anchor;
    try {
      anchor = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException | UnsupportedOperationException cannotOpen) {
      anchor = null; // a directory cannot be opened on some systems: compare the file key alone
    }
    try {
      Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
      return new DirectoryIdentity(path, description, anchor, key);
    } catch (IOException | RuntimeException e) {
      if (anchor != null) {
        anchor.close();
      }
      throw e;
    }
  }

  /**
   * Returns the store's path.
   *
   * @return the real path given when the identity was taken
   */
  public Path path() {
    return path;
  }

  /**
   * Checks that the store at the path is still the one whose identity was taken. One call to the
   * file system's attributes.
   *
   * @throws StoreLost if it was deleted or replaced; the message names the store and says what to
   *     do
   */
  public void requireSame() {
    String lost = lostBecause;
    if (lost == null) {
      lost = check();
      if (lost == null) {
        return;
      }
      lostBecause = lost;
    }
    throw new StoreLost(
        "the "
            + description
            + " "
            + path
            + " "
            + lost
            + " while this repository had it open; its leases are lost, and another process may"
            + " already hold the same keys in a new store. Stop every holder before deleting or"
            + " replacing a lease store; open the repository again to use the store now there",
        null);
  }

  private @Nullable String check() {
    BasicFileAttributes now;
    try {
      now = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException gone) {
      return "was deleted";
    } catch (IOException unreadable) {
      return null; // cannot tell; the operation itself will report what is wrong
    }
    if (fileKey != null && !fileKey.equals(now.fileKey())) {
      return "was replaced by another one";
    }
    return null;
  }

  /** Lets go of the store. */
  @Override
  public void close() {
    if (anchor != null) {
      try {
        anchor.close();
      } catch (IOException ignored) {
        // nothing more to release
      }
    }
  }

  @Override
  public String toString() {
    return "DirectoryIdentity[" + description + " " + path + ", " + fileKey + "]";
  }
}
