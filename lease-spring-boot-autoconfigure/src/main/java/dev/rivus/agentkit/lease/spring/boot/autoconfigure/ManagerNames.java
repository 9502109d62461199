/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * The manager's name: {@code lease.name} as given, else the application's name made valid; and the
 * names of the managers of {@code @Leased(ttl = ...)}, made from it.
 */
final class ManagerNames {

  private static final int LONGEST = 64;

  private ManagerNames() {}

  static @Nullable String of(@Nullable String configured, Environment environment) {
    if (configured != null) {
      return configured; // the builder says what is wrong with it
    }
    String application = environment.getProperty("spring.application.name");
    if (application == null || application.isBlank()) {
      return null;
    }
    String name = application.strip().replaceAll("[^A-Za-z0-9._-]", "-");
    return name.length() > LONGEST ? name.substring(0, LONGEST) : name;
  }

  /**
   * The name of the manager of one TTL: the application's manager's name (valid, as it named a
   * manager), shortened as needed, then {@code -ttl} and the TTL ({@code billing-ttl30s}, {@code
   * billing-ttl1500ms}).
   */
  static String withTtl(String base, Duration ttl) {
    String suffix = "-ttl" + compact(ttl);
    return base.substring(0, Math.min(base.length(), LONGEST - suffix.length())) + suffix;
  }

  private static String compact(Duration ttl) {
    if (ttl.toNanosPart() == 0) {
      return ttl.toSeconds() + "s";
    }
    return ttl.toNanosPart() % 1_000_000 == 0 ? ttl.toMillis() + "ms" : ttl.toNanos() + "ns";
  }
}
