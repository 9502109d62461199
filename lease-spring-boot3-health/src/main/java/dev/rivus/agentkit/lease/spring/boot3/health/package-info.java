/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** The {@code lease} health indicator of Spring Boot 3 applications. */
@NullMarked
package dev.rivus.agentkit.lease.spring.boot3.health;

import org.jspecify.annotations.NullMarked;
