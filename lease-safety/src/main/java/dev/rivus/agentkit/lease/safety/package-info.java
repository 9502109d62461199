/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The safety harness (issue 11; {@code docs/safety.md}), one package per part of a run:
 *
 * <ul>
 *   <li>{@link dev.rivus.agentkit.lease.safety.driver}: the entry points ({@code SafetyMain}, and
 *       {@code MutantMain} for the mutation runs) and the run of one phase: it starts the resource
 *       and the workers, lets the faults be injected for the phase's duration, stops everything and
 *       has the logs judged.
 *   <li>{@link dev.rivus.agentkit.lease.safety.resource}: the protected resource, a JVM of its own
 *       that is never faulted, whose log of the requests it handled is the ground truth; and the
 *       client through which the workers and the driver talk to it.
 *   <li>{@link dev.rivus.agentkit.lease.safety.workers}: the JVMs that hold leases (library
 *       workers, a noisy one, {@code lease run} commands) and the driver's handles on them.
 *   <li>{@link dev.rivus.agentkit.lease.safety.store}: the repositories under attack and how every
 *       process reaches them.
 *   <li>{@link dev.rivus.agentkit.lease.safety.faults}: what the driver does to the workers, their
 *       networks and the store.
 *   <li>{@link dev.rivus.agentkit.lease.safety.check}: the checker, pure code over the logs, which
 *       judges properties P1–P8.
 * </ul>
 *
 * <p>This package holds what they all share: the JSON-lines log ({@link JsonLines}) that every
 * process writes and the checker reads.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety;

import org.jspecify.annotations.NullMarked;
