/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.time.Duration;

/**
 * One renewal round of a manager, as told to {@link LeaseListener#renewalRound(RenewalRound)} once
 * the round has taken its outcomes: how many leases it renewed in one batch, and how long the batch
 * took. A round is not about one key, so it is not a {@link LeaseEvent}. An immutable value.
 *
 * @param manager the manager's name
 * @param leases how many leases the round sent to the repository
 * @param renewed how many of them it renewed
 * @param failed how many renewals failed and will be tried again (the rest were lost)
 * @param took from the round's start to its outcomes, the repository's write included
 */
public record RenewalRound(String manager, int leases, int renewed, int failed, Duration took) {}
