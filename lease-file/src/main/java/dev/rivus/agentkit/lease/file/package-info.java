/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The JSON-file repository: one record file per key in a directory shared by the processes of one
 * machine, written under a per-key lock file with an atomic rename and fsync.
 */
@NullMarked
package dev.rivus.agentkit.lease.file;

import org.jspecify.annotations.NullMarked;
