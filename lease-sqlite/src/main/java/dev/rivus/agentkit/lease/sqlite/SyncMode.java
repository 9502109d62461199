/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

/**
 * The {@code PRAGMA synchronous} level of one write transaction, in WAL mode.
 *
 * <p>{@link #FULL} syncs the WAL file at every commit: the commit survives a power cut once {@code
 * COMMIT} returns. {@link #NORMAL} syncs it only at checkpoints: the commit survives a crash of the
 * process at once, but a power cut may take it, together with every later commit (WAL frames carry
 * a checksum chained over all earlier frames, so recovery keeps a prefix of the commits and never
 * one without those before it). A {@code FULL} commit syncs the whole WAL, earlier {@code NORMAL}
 * commits included, so the prefix that survives always ends at or after the last {@code FULL}
 * commit.
 */
enum SyncMode {
  FULL,
  NORMAL
}
