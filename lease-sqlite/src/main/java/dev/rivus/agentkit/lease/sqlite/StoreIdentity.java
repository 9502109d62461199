/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.StoreLost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The database file a repository opened, known by what the system says it is ({@link
 * BasicFileAttributes#fileKey()}: device and inode on Unix), not by its name. Every operation
 * compares the file now at the path with it, one {@code stat} call, and fails with {@link
 * StoreLost} if the file was deleted, replaced or emptied: its holders then give their leases up at
 * once instead of renewing records in a file no one else sees.
 *
 * <p>The comparison is sound only while the inode cannot be reused for another file, that is while
 * the repository keeps the file open: {@link Database} holds an anchor connection for that. Where
 * the file system gives no file key (Windows), only a deleted or emptied file is noticed.
 *
 * <p>Immutable and thread-safe.
 */
final class StoreIdentity {

  private final Path file;
  private final @Nullable Object fileKey;

  private StoreIdentity(Path file, @Nullable Object fileKey) {
    this.file = file;
    this.fileKey = fileKey;
  }

  /**
   * Reads the identity of the file now at {@code file}.
   *
   * @throws LeaseRepositoryFailure if it cannot be read
   */
  static StoreIdentity of(Path file) {
    try {
      return new StoreIdentity(file, attributes(file).fileKey());
    } catch (IOException e) {
      throw StorePath.unusable(file, "cannot read its attributes (" + e + ")", e);
    }
  }

  /** Whether the file at the path is the same one as {@code other}'s. */
  boolean sameFileAs(StoreIdentity other) {
    return Objects.equals(fileKey, other.fileKey);
  }

  /**
   * Checks that the file at the path is still the one this repository opened.
   *
   * @throws StoreLost if it was deleted, replaced, emptied or truncated
   * @throws LeaseRepositoryFailure if its attributes cannot be read
   */
  void check() {
    String change = change();
    if (change != null) {
      throw lost(change, null);
    }
  }

  /** What happened to the file, or {@code null} if it is still the one opened. */
  @Nullable String change() {
    BasicFileAttributes now;
    try {
      now = attributes(file);
    } catch (NoSuchFileException e) {
      return "was deleted or renamed";
    } catch (IOException e) {
      throw new LeaseRepositoryFailure(
          null, "lease database " + file + ": cannot read its attributes (" + e + ")", e);
    }
    if (fileKey != null && !fileKey.equals(now.fileKey())) {
      return "was replaced by another file";
    }
    if (now.size() < StorePath.HEADER_BYTES) {
      return now.size() == 0 ? "was emptied (it has 0 bytes)" : "was truncated";
    }
    return null;
  }

  /** The failure of every operation once the file is no longer the one opened. */
  StoreLost lost(String change, @Nullable Throwable cause) {
    return new StoreLost(
        "lease database "
            + file
            + " "
            + change
            + " while this repository had it open, so every lease held through it is lost: a"
            + " database now at that path does not have their records, and another process may"
            + " already hold the same keys. Stop the processes that used the old database before"
            + " opening a new repository (see docs/sqlite.md, \"Resetting a store\")",
        cause);
  }

  private static BasicFileAttributes attributes(Path file) throws IOException {
    return Files.readAttributes(file, BasicFileAttributes.class);
  }

  @Override
  public String toString() {
    return file + " " + fileKey;
  }
}
