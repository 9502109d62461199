/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java on JSON files: one record file per key in a directory shared by the processes of
 * one machine. Exports only {@code dev.rivus.agentkit.lease.file}; provides the {@code dir:PATH}
 * store to {@code LeaseStores}.
 */
module dev.rivus.agentkit.lease.file {
  requires transitive dev.rivus.agentkit.lease;
  requires static org.jspecify;
  requires com.fasterxml.jackson.databind;

  exports dev.rivus.agentkit.lease.file;

  provides dev.rivus.agentkit.lease.spi.LeaseStoreProvider with
      dev.rivus.agentkit.lease.file.provider.FileStoreProvider;
}
