/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite.provider;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.spi.LeaseStoreProvider;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import dev.rivus.agentkit.lease.sqlite.SqliteOptions;
import dev.rivus.agentkit.lease.support.FileModes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The {@code sqlite:PATH} store: an SQLite lease database ({@link SqliteLeaseRepository}), created
 * with its missing directories (private to the user: the default one is the user's own state
 * directory) if the request allows, with the request's busy wait. A request that may not create it
 * opens an existing database that it cannot write (a read-only file system, another user's store)
 * for reading only. It has no settings. Thread-safe: it keeps no state.
 */
public final class SqliteStoreProvider implements LeaseStoreProvider {

  /** The scheme of this store. */
  public static final String SCHEME = "sqlite";

  /** For {@link java.util.ServiceLoader}. */
  public SqliteStoreProvider() {}

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public LeaseRepository open(StoreRequest request) {
    request.requireKnownSettings();
    Path file = request.locationPath("database file");
    SqliteOptions.Builder builder = SqliteOptions.builder().createIfMissing(request.create());
    request.busyWait().ifPresent(builder::busyWait);
    if (!request.create() && Files.exists(file) && !writable(file)) {
      // A reader needs no write access: a store on a read-only file system, or another user's.
      builder.readOnly(true);
    }
    if (request.create()) {
      createParent(file);
    }
    return SqliteLeaseRepository.open(file, builder.build());
  }

  /** Whether the database and its directory, where SQLite keeps its log, can be written. */
  private static boolean writable(Path file) {
    Path real;
    try {
      real = file.toRealPath();
    } catch (IOException e) {
      return true; // the writing opening says what is wrong
    }
    Path directory = real.getParent();
    return Files.isWritable(real) && directory != null && Files.isWritable(directory);
  }

  private static void createParent(Path file) {
    Path parent = file.getParent();
    if (parent == null || Files.isDirectory(parent)) {
      return;
    }
    try {
      // Private: the default one is the user's own state directory.
      Files.createDirectories(parent, FileModes.privateDirectory());
    } catch (IOException | SecurityException e) {
      throw new LeaseRepositoryFailure(
          null, "cannot create the directory of the lease database " + file + ": " + reason(e), e);
    }
  }

  private static String reason(Exception e) {
    if (e instanceof FileAlreadyExistsException) {
      return ((FileAlreadyExistsException) e).getFile() + " exists and is not a directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied on " + ((AccessDeniedException) e).getFile();
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory: " + ((NoSuchFileException) e).getFile();
    }
    if (e instanceof FileSystemException && e.getMessage() != null) {
      return e.getMessage(); // "file: reason"
    }
    return e.toString();
  }
}
