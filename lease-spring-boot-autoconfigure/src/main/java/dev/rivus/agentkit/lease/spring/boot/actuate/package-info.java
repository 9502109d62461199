/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The leases of a Spring Boot application seen through its actuator: the {@code leases} endpoint
 * and the {@code lease} health, fed by {@link
 * dev.rivus.agentkit.lease.spring.boot.actuate.HeldLeases}.
 */
@NullMarked
package dev.rivus.agentkit.lease.spring.boot.actuate;

import org.jspecify.annotations.NullMarked;
