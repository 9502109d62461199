/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a run of the tests may expect of its machine: on CI ({@code CI=true} in the environment)
 * every server and binary a test needs is there, and a missing one fails the test; elsewhere the
 * test is skipped, with the reason. The one place that reads {@code CI}.
 *
 * <p>Thread-safe: stateless.
 */
public final class TestEnvironment {

  private TestEnvironment() {}

  /**
   * Tells whether this is CI's run: the environment says {@code CI=true}.
   *
   * @return {@code true} on CI
   */
  public static boolean isCi() {
    return "true".equals(System.getenv("CI"));
  }

  /**
   * Skips the calling test, or fails it on CI, because something it needs is missing: so that a
   * missing server is never mistaken for a pass on CI, and never fails a test elsewhere.
   *
   * @param reason what is missing, the skip's message: {@code "PostgreSQL at URL unreachable: …"}
   * @param requirement what CI requires, added to the failure's message: {@code "the server is
   *     required"}
   * @throws org.opentest4j.TestAbortedException always, outside CI: the test is skipped
   * @throws org.opentest4j.AssertionFailedError always, on CI: the test fails with {@code "REASON
   *     (CI=true: REQUIREMENT)"}
   */
  public static void skipOrFail(String reason, String requirement) {
    if (isCi()) {
      Assertions.fail(reason + " (CI=true: " + requirement + ")");
    }
    Assumptions.abort(reason);
  }
}
