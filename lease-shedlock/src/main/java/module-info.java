/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A ShedLock {@code LockProvider} on a {@code LeaseManager}: {@code @SchedulerLock} jobs run
 * unchanged on any lease store, renewed while they run, with a fencing token to pass to their
 * writes.
 *
 * <p>Exports only {@code dev.rivus.agentkit.lease.shedlock}; its helpers are package-private.
 * ShedLock's core is an automatic module ({@code net.javacrumbs.shedlock.core}).
 */
module dev.rivus.agentkit.lease.shedlock {
  requires transitive dev.rivus.agentkit.lease;
  // Not transitive: ShedLock's core is an automatic module (javac warns on exporting one), and an
  // application that uses ShedLock requires it already.
  requires net.javacrumbs.shedlock.core;
  requires static org.jspecify;

  exports dev.rivus.agentkit.lease.shedlock;
}
