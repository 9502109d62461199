/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/** The manager's name: {@code lease.name} as given, else the application's name made valid. */
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
}
