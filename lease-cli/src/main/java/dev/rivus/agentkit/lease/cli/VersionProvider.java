/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version printed by {@code --version}: the release and the commit the tool was built from
 * ({@code +dirty} if the work tree had uncommitted changes), as the build wrote them into {@code
 * build.properties}. Thread-safe.
 */
final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {"lease " + describe(read())};
  }

  static String describe(Properties build) {
    String version = build.getProperty("version", "(development build)");
    String commit = build.getProperty("commit", "unknown");
    if (commit.isBlank() || commit.startsWith("${")) {
      commit = "unknown";
    }
    boolean dirty = "true".equals(build.getProperty("dirty"));
    return version + " (commit " + commit + (dirty ? "+dirty" : "") + ")";
  }

  private static Properties read() {
    Properties build = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        build.load(in);
      }
    } catch (IOException e) {
      // the version says "unknown" then
    }
    return build;
  }
}
