/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.platform.LeaseScheduler;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.time.Duration;

/**
 * The parts one lease manager is made of, built once by {@link DefaultLeaseManager}'s constructor
 * and handed to the classes that do its work ({@link Renewer}, {@link Releases}, {@link
 * ManagedLease}, {@link FencedRunner}, {@link WorkCall}, {@link LateRound}), so that they reach the
 * parts they use rather than the manager itself. What they must ask of the manager (to forget a
 * lease, to lose every lease with a lost store) they get as a narrow callback of its own.
 *
 * <p>Immutable; thread-safe as its parts are, and each of them is.
 *
 * @param name the manager's name, for messages
 * @param repository the store of the records the manager writes
 * @param ticker the monotonic clock every TTL, heartbeat, deadline and wait is measured on
 * @param wallClock the wall clock, for records' times and first generations only
 * @param scheduler the manager's own threads: the timer and the lanes (repository, interrupts,
 *     notifications, listener); closed with the manager
 * @param timing the TTL and heartbeat in the ticker's nanoseconds, and what follows from them
 * @param keyLockSilenceLimit how long fenced work's key lock may go unasked before the storage may
 *     end it: the TTL plus the grace
 * @param events tells the manager's listener what happened, on the listener lane
 * @param warnings logs the manager's warnings, on the notifications lane
 * @param ownTombstones the tombstones the manager wrote itself, so that its next acquisition of
 *     such a key can write without reading first
 */
record ManagerParts(
    String name,
    LeaseRepository repository,
    Ticker ticker,
    Clock wallClock,
    LeaseScheduler scheduler,
    Timing timing,
    Duration keyLockSilenceLimit,
    Events events,
    Warnings warnings,
    OwnTombstones ownTombstones) {}
