/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorkerMain;
import dev.rivus.agentkit.lease.safety.workers.WorkerMain;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code full_disk}: for a while, every write to the store fails with {@code ENOSPC}, then there is
 * space again ({@code "note":"space"}). Two ways, said in the fault's line ({@code "how"}):
 *
 * <ul>
 *   <li>{@code tmpfs}: where the driver mounted a tmpfs on the store, a filler file fills it to the
 *       last byte, and is deleted after;
 *   <li>{@code strace}: elsewhere, {@link InjectedEnospc} attached to every process that opens the
 *       store (the worker JVMs, the noisy one, the current {@code lease run}) fails their writes to
 *       the store's files, and only those, until it detaches. A {@code lease run} started meanwhile
 *       is not attached.
 * </ul>
 *
 * <p>Without a tmpfs or {@code strace}, the kind leaves the rotation.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class FullDisk {

  /** The filler's name in the store's directory; a lost store's deletion leaves it alone. */
  static final String FILLER = ".filler";

  /** The main classes of the processes that write to the store. */
  private static final List<String> WRITERS =
      List.of(
          WorkerMain.class.getName(),
          NoisyWorkerMain.class.getName(),
          "dev.rivus.agentkit.lease.cli.LeaseCli");

  private final StoreSite site;
  private final boolean strace;
  private int injections;

  FullDisk(StoreSite site) {
    this.site = site;
    this.strace = !site.tmpfs() && InjectedEnospc.available();
  }

  /** Whether the fault can be done here: on the driver's tmpfs, or with {@code strace}. */
  boolean available() {
    return site.tmpfs() || strace;
  }

  /** How the fault is done here: {@code tmpfs}, {@code strace} or {@code none}. */
  String way() {
    return site.tmpfs() ? "tmpfs" : strace ? "strace" : "none";
  }

  void hold(Duration hold) throws IOException, InterruptedException {
    if (site.tmpfs()) {
      fill(hold);
    } else {
      inject(hold);
    }
  }

  private void fill(Duration hold) throws IOException, InterruptedException {
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
    line.put("how", "tmpfs");
    line.put("filler", Files.size(filler));
    line.put("ms", hold.toMillis());
    site.log().write(line);
    Thread.sleep(hold.toMillis()); // the fault itself
    Files.deleteIfExists(filler);
    site.writeNote("space");
  }

  private void inject(Duration hold) throws IOException, InterruptedException {
    List<Path> paths = storeFiles();
    List<Long> attached = new ArrayList<>();
    injections++;
    try (InjectedEnospc enospc = new InjectedEnospc()) {
      for (ProcessHandle writer : writers()) {
        Path output = site.phaseDir().resolve("strace-" + injections + "-" + writer.pid() + ".txt");
        if (enospc.attach(writer.pid(), paths, output)) {
          attached.add(writer.pid());
        }
      }
      if (attached.isEmpty()) {
        Map<String, Object> skipped = StoreSite.note("full_disk_skipped");
        skipped.put("detail", "strace attached to no process: " + enospc.failures());
        site.log().write(skipped);
        return;
      }
      Map<String, Object> line = site.fault("full_disk");
      line.put("how", "strace");
      line.put("pids", attached.toString());
      line.put("paths", paths.size());
      line.put("ms", hold.toMillis());
      if (!enospc.failures().isEmpty()) {
        line.put("not_attached", enospc.failures().toString());
      }
      site.log().write(line);
      Thread.sleep(hold.toMillis()); // the fault itself
      int injected = enospc.detach();
      Map<String, Object> space = StoreSite.note("space");
      space.put("injected", injected);
      site.log().write(space);
    }
  }

  /**
   * The store's files, present or to come: the database with its journals and key lock file, or
   * each record with its temporary file, lock files and those of keys not written yet.
   */
  private List<Path> storeFiles() throws IOException {
    Path store = site.path().toAbsolutePath();
    List<Path> paths = new ArrayList<>();
    if (site.kind() == StoreKind.SQLITE) {
      for (String suffix : List.of("", "-wal", "-shm", "-journal", ".fence")) {
        paths.add(store.resolveSibling(store.getFileName() + suffix));
      }
      return paths;
    }
    try (Stream<Path> files = Files.list(store)) {
      for (Path f : files.toList()) {
        paths.add(f);
        if (f.getFileName().toString().endsWith(".json")) {
          paths.add(f.resolveSibling(f.getFileName() + ".tmp")); // replaced by a rename
        }
      }
    }
    return paths;
  }

  /** The driver's children that open the store: workers and the current {@code lease run}. */
  private static List<ProcessHandle> writers() {
    return ProcessHandle.current()
        .children()
        .filter(
            p -> {
              String commandLine = p.info().commandLine().orElse("");
              return WRITERS.stream().anyMatch(commandLine::contains);
            })
        .toList();
  }
}
