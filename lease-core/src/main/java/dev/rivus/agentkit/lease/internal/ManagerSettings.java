/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.internal;

import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseListener;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Everything a manager is made of, as its builder resolved it.
 *
 * @param repository where records live
 * @param config TTL and heartbeat
 * @param grace how long fenced work may take to end after its lease was lost, added to the TTL for
 *     its key lock's silence limit
 * @param ticker the monotonic clock
 * @param wallClock the wall clock, for records only
 * @param scheduler makes the manager's scheduler
 * @param currentProcess the identity written to records
 * @param livenessJudge judges other holders
 * @param listener hears events; {@link LeaseListener#NONE} for none
 * @param name the manager's name, or null for a random one
 */
public record ManagerSettings(
    LeaseRepository repository,
    LeaseConfig config,
    Duration grace,
    Ticker ticker,
    Clock wallClock,
    SchedulerFactory scheduler,
    ProcessIdentity currentProcess,
    LivenessJudge livenessJudge,
    LeaseListener listener,
    @Nullable String name) {}
