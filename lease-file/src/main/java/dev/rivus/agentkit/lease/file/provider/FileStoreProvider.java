/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file.provider;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.file.FileLeaseRepository;
import dev.rivus.agentkit.lease.file.FileOptions;
import dev.rivus.agentkit.lease.spi.LeaseStoreProvider;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code dir:PATH} store: a directory of JSON lease files ({@link FileLeaseRepository}),
 * created with the directory if the request allows. A request that may not create it opens an
 * existing directory for reading only, which needs no write access: the directory is neither
 * created nor probed, so that a read-only or another user's store can be read. It has no settings.
 * Thread-safe: it keeps no state.
 */
public final class FileStoreProvider implements LeaseStoreProvider {

  /** The scheme of this store. */
  public static final String SCHEME = "dir";

  /** For {@link java.util.ServiceLoader}. */
  public FileStoreProvider() {}

  @Override
  public String scheme() {
    return SCHEME;
  }

  @Override
  public LeaseRepository open(StoreRequest request) {
    request.requireKnownSettings();
    Path directory = request.locationPath("directory");
    if (!request.create() && !Files.isDirectory(directory)) {
      throw new LeaseRepositoryFailure(
          null,
          Files.exists(directory)
              ? directory + " is not a directory, so not a lease directory"
              : "no lease directory at "
                  + directory
                  + "; "
                  + request.spelling(StoreRequest.CALLER, "this request")
                  + " only reads a store and never creates one (check the path)",
          null);
    }
    return FileLeaseRepository.open(
        directory, FileOptions.builder().readOnly(!request.create()).build());
  }
}
