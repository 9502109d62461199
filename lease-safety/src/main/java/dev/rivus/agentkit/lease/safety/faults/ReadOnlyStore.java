/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code read_only}: the store made read-only for a while. On the tmpfs, a read-only bind mount of
 * the store's directory over itself (new opens fail with EROFS; descriptors opened before keep
 * writing); elsewhere {@code chattr +i} on the store (root ignores permission bits, so {@code
 * chmod} would stop nothing). Where neither works, the fault is skipped ({@code
 * read_only_skipped}).
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class ReadOnlyStore {

  private final StoreSite site;

  ReadOnlyStore(StoreSite site) {
    this.site = site;
  }

  void hold(Duration hold) throws InterruptedException {
    String target = site.dir().toString();
    boolean bound = site.tmpfs() && command("mount", "--bind", target, target) == 0;
    if (bound && command("mount", "-o", "remount,bind,ro", target) != 0) {
      command("umount", "-l", target);
      bound = false;
    }
    String how;
    List<String> frozen = new ArrayList<>();
    if (bound) {
      how = "read-only bind mount of the store's tmpfs";
    } else {
      // chattr +i: root ignores permission bits, so chmod would stop nothing.
      frozen.add(site.kind() == StoreKind.FILE ? site.path().toString() : target);
      if (site.kind() == StoreKind.SQLITE) {
        frozen.add(site.path().toString());
      }
      List<String> freeze = new ArrayList<>(List.of("chattr", "+i"));
      freeze.addAll(frozen);
      if (command(freeze.toArray(String[]::new)) != 0) {
        unfreeze(frozen);
        site.writeNote("read_only_skipped");
        return;
      }
      how = "chattr +i";
    }
    Map<String, Object> line = site.fault("read_only");
    line.put("how", how);
    line.put("ms", hold.toMillis());
    site.log().write(line);
    try {
      Thread.sleep(hold.toMillis()); // the fault itself
    } finally {
      if (bound) {
        // Lazily: a file opened through the read-only mount would make a plain umount fail
        // (EBUSY) and leave the store read-only for the rest of the phase.
        command("umount", "-l", target);
      } else {
        unfreeze(frozen);
      }
    }
    site.writeNote("writable");
  }

  private void unfreeze(List<String> frozen) {
    List<String> thaw = new ArrayList<>(List.of("chattr", "-i"));
    thaw.addAll(frozen);
    command(thaw.toArray(String[]::new));
  }

  private int command(String... command) {
    return Commands.logged(site.log(), command);
  }
}
