/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Leases for Java on JSON files: one record file per key in a directory shared by the processes of
 * one machine. Exports only {@code dev.rivus.agentkit.lease.file}.
 */
module dev.rivus.agentkit.lease.file {
  requires transitive dev.rivus.agentkit.lease;
  requires static org.jspecify;
  requires com.fasterxml.jackson.databind;

  exports dev.rivus.agentkit.lease.file;
}
