/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.support.FileModes;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Checks the repository directory once, when a repository is opened. */
final class LeaseDirectory {

  private LeaseDirectory() {}

  /**
   * Returns the real directory (absolute, links resolved, so that every name of it is one store),
   * created if missing (and its creation made durable), after a probe file showed that it is
   * writable.
   */
  static Path prepare(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    boolean existed = Files.isDirectory(absolute);
    if (!existed) {
      try {
        Files.createDirectories(absolute, FileModes.directory());
      } catch (IOException e) {
        throw failure(
            "cannot create lease directory " + absolute + ": " + describe(e, absolute), e);
      }
    }
    if (!Files.isDirectory(absolute)) {
      throw failure(absolute + " is not a directory, so it cannot hold lease records", null);
    }
    probeWritable(absolute);
    Path real;
    try {
      real = absolute.toRealPath();
    } catch (IOException e) {
      throw failure("cannot resolve lease directory " + absolute + ": " + describe(e, absolute), e);
    }
    Path parent = absolute.getParent();
    if (!existed && parent != null) {
      try {
        // A record is only as durable as the directory entry that leads to it.
        DurableFiles.syncDirectory(parent);
      } catch (IOException e) {
        throw failure(
            "cannot make the new lease directory "
                + absolute
                + " durable: "
                + describe(e, absolute),
            e);
      }
    }
    return real;
  }

  /** Returns the real path of an existing directory, for reading only: nothing is written. */
  static Path existing(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    if (!Files.isDirectory(absolute)) {
      throw failure(
          Files.exists(absolute)
              ? absolute + " is not a directory, so not a lease directory"
              : "no lease directory at " + absolute,
          null);
    }
    try {
      return absolute.toRealPath();
    } catch (IOException e) {
      throw failure("cannot resolve lease directory " + absolute + ": " + describe(e, absolute), e);
    }
  }

  /**
   * Creates and deletes a file: unlike the permission bits, that also tells for root and for
   * read-only mounts.
   */
  private static void probeWritable(Path directory) {
    Path probe = directory.resolve(".probe-" + UUID.randomUUID() + ".tmp");
    try {
      FileChannel.open(probe, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
      Files.delete(probe);
    } catch (IOException e) {
      throw failure(
          "lease directory "
              + directory
              + " is not writable: "
              + describe(e, directory)
              + "; the repository writes record, lock and temporary files there",
          e);
    }
  }

  /**
   * Says what went wrong, for a message that already names {@code subject}: the file the failure is
   * about is named again only if it is another one (a parent directory, a lock or temporary file).
   */
  static String describe(IOException e, Path subject) {
    String kind = e.getClass().getSimpleName();
    if (e instanceof FileAlreadyExistsException exists && exists.getReason() == null) {
      boolean sameFile = exists.getFile() == null || subject.toString().equals(exists.getFile());
      return (sameFile ? "it" : exists.getFile()) + " exists and is not a directory";
    }
    if (e instanceof FileSystemException fs) {
      boolean sameFile = subject.toString().equals(fs.getFile());
      String reason = fs.getReason() != null ? fs.getReason() : inWords(fs);
      return (reason == null ? kind : reason + " (" + kind + ")")
          + (sameFile || fs.getFile() == null ? "" : " on " + fs.getFile())
          + (fs.getOtherFile() == null ? "" : " -> " + fs.getOtherFile());
    }
    return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
  }

  /** The Java file exceptions that carry no reason of the system's, in words. */
  private static @Nullable String inWords(FileSystemException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return null;
  }

  private static LeaseRepositoryFailure failure(String message, @Nullable Throwable cause) {
    return new LeaseRepositoryFailure(null, message, cause);
  }
}
