/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Spring support: {@link dev.rivus.agentkit.lease.spring.Leased} runs a bean method under a lease,
 * typically a {@code @Scheduled} job that must run on one instance at a time, and {@link
 * dev.rivus.agentkit.lease.spring.CurrentLease} gives the running method its fencing token. The
 * Spring Boot auto-configuration turns it on; see {@code docs/spring-boot.md}.
 */
@NullMarked
package dev.rivus.agentkit.lease.spring;

import org.jspecify.annotations.NullMarked;
