/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Spring Boot auto-configuration of Leases for Java: a repository, a manager, metrics and {@link
 * dev.rivus.agentkit.lease.spring.Leased} methods, set by {@code lease.*} properties ({@link
 * dev.rivus.agentkit.lease.spring.boot.autoconfigure.LeaseProperties}).
 */
@NullMarked
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
