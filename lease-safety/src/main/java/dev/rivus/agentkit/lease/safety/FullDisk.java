/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code full_disk}: the store's tmpfs filled to the last byte by a filler file for a while, then
 * the filler deleted ({@code space}). Only where the driver mounted a tmpfs on the store.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class FullDisk {

  /** The filler's name in the store's directory; a lost store's deletion leaves it alone. */
  static final String FILLER = ".filler";

  private final StoreSite site;

  FullDisk(StoreSite site) {
    this.site = site;
  }

  /** Whether the fault can be done here: only on the driver's tmpfs. */
  boolean available() {
    return site.tmpfs();
  }

  void hold(Duration hold) throws IOException, InterruptedException {
    Path filler = site.dir().resolve(FILLER);
    byte[] chunk = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      // ENOSPC: the disk is full, which is the point
    }
    Map<String, Object> line = site.fault("full_disk");
    line.put("how", "tmpfs filled (" + Files.size(filler) + " bytes of filler)");
    line.put("ms", hold.toMillis());
    site.log().write(line);
    Thread.sleep(hold.toMillis()); // the fault itself
    Files.deleteIfExists(filler);
    site.writeNote("space");
  }
}
