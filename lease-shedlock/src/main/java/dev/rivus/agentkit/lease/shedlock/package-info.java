/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * ShedLock on leases: {@link dev.rivus.agentkit.lease.shedlock.LeaseLockProvider}, a ShedLock
 * {@code ExtensibleLockProvider} on a {@link dev.rivus.agentkit.lease.LeaseManager}. See {@code
 * docs/shedlock.md} for moving over, and for how it differs from ShedLock's storage-based providers.
 *
 * <p>ShedLock's own provider suite ({@code AbstractExtensibleLockProviderIntegrationTest} of {@code
 * shedlock-test-support} 6.6.1, 15 tests) runs against this provider on the memory, SQLite and
 * PostgreSQL stores. Every test of it passes as written: none fails by design, so none is
 * overridden.
 */
@NullMarked
package dev.rivus.agentkit.lease.shedlock;

import org.jspecify.annotations.NullMarked;
