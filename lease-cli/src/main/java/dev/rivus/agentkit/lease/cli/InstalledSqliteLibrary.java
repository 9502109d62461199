/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Points sqlite-jdbc at the native library unpacked into the installed tool, so that a start of
 * {@code lease} loads it in place instead of extracting a copy from the jar to a temporary file
 * (about 50 ms, and a write to {@code /tmp}, at every start).
 *
 * <p>The launcher names the installation with the system property {@value #HOME_PROPERTY}; the
 * library for this machine is then {@code HOME/lib/native/OS/ARCH/}, in sqlite-jdbc's naming of
 * platforms. The platform is read from the JVM's own properties and, for musl, from the libraries
 * mapped into this process: sqlite-jdbc's own probe runs {@code uname -o}, a process at every
 * start. Where that property is unset, the platform is one the archive does not carry, the file is
 * absent or the user chose a library with {@code org.sqlite.lib.path}, nothing changes and
 * sqlite-jdbc finds its library as usual. Called once, from {@code main}, before any database is
 * opened.
 */
final class InstalledSqliteLibrary {

  static final String HOME_PROPERTY = "lease.home";

  private static final String PATH_PROPERTY = "org.sqlite.lib.path";
  private static final String NAME_PROPERTY = "org.sqlite.lib.name";

  private InstalledSqliteLibrary() {}

  static void prefer() {
    String home = System.getProperty(HOME_PROPERTY);
    if (home == null || home.isEmpty() || System.getProperty(PATH_PROPERTY) != null) {
      return;
    }
    String platform = platform();
    if (platform == null) {
      return;
    }
    Path folder = Path.of(home, "lib", "native", platform);
    String name = System.mapLibraryName("sqlitejdbc");
    if (Files.isRegularFile(folder.resolve(name))) {
      System.setProperty(PATH_PROPERTY, folder.toString());
      System.setProperty(NAME_PROPERTY, name);
    }
  }

  /** This machine in sqlite-jdbc's words ({@code Linux/x86_64}), or null for one not shipped. */
  static @Nullable String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch =
        switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "aarch64";
          default -> null;
        };
    if (arch == null) {
      return null;
    }
    if (os.startsWith("linux")) {
      return (isMusl() ? "Linux-Musl/" : "Linux/") + arch;
    }
    if (os.startsWith("mac")) {
      return "Mac/" + arch;
    }
    if (os.startsWith("freebsd")) {
      return "FreeBSD/" + arch;
    }
    return null;
  }

  private static boolean isMusl() {
    try {
      return Files.readString(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1)
          .contains("/ld-musl-");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
