/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.store.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The faults after which the running repositories are unusable ({@code StoreLost}, by design): the
 * store deleted ({@code store_delete}), swapped for a copy ({@code store_replace}), renamed under
 * its holders and used at its new name ({@code store_rename}), or damaged beyond use ({@code
 * db_truncate}, {@code db_corrupt}), and what an operator then does: lets 0.5 s pass for the
 * holders to notice, deletes a damaged store, stops every worker and starts them on the new store.
 * What the workers met meanwhile goes to the driver's log ({@link WhatWorkersSaw}).
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
public final class LostStore {

  private static final Duration SETTLE = Duration.ofMillis(500);

  /**
   * The field of a loss's log line that says whether it took the key-lock files with it ({@code
   * removed}) or not ({@code kept}).
   */
  public static final String KEY_LOCK = "keyLock";

  /** Damage done to the store; returns how, for the fault's log line. */
  @FunctionalInterface
  interface Damage {
    String apply() throws IOException;
  }

  private final StoreSite site;
  private final WorkerRestarts workers;

  LostStore(StoreSite site, WorkerRestarts workers) {
    this.site = site;
    this.workers = workers;
  }

  /**
   * Damages or removes the store under the running workers, then restarts them on a new one.
   *
   * @param kind the fault's name in the log
   * @param damage what is done to the store
   * @param deleteAfter whether the operator deletes the store before the restart (a damaged one)
   */
  void lose(String kind, Damage damage, boolean deleteAfter)
      throws IOException, InterruptedException {
    // A worker that opens a damaged store fails to start: the harness's doing (a respawn just
    // before, or the noisy worker started last), not the library's.
    workers.awaitWorkersOpen();
    workers.pauseLeaseRuns(); // no new lease run on a store that is going away
    try {
      long faultNanos = System.nanoTime(); // a worker may meet the damage before it is logged
      String how = damage.apply();
      Map<String, Object> line = site.fault(kind);
      line.put("how", how);
      line.put(KEY_LOCK, removesKeyLock(kind, deleteAfter) ? "removed" : "kept");
      site.log().write(line);
      Thread.sleep(SETTLE.toMillis()); // the holders' next renewal finds the store gone
      if (deleteAfter) {
        deleteStore();
      }
      List<String> stopped = workers.restartAll();
      WhatWorkersSaw.log(site, kind, faultNanos, stopped);
    } finally {
      workers.resumeLeaseRuns();
    }
  }

  /**
   * Whether the loss takes the store's key-lock files with it, so that a holder's key lock no
   * longer excludes a process that opens the new store at the path: a deleted store (or a damaged
   * one, which the operator deletes), and on files a directory swapped for a copy (its lock files
   * are copies too). An SQLite database swapped for a copy keeps its key-lock file beside it.
   */
  private boolean removesKeyLock(String kind, boolean deleteAfter) {
    return deleteAfter
        || kind.equals("store_delete")
        || (kind.equals("store_replace") && site.kind() == StoreKind.FILE);
  }

  /** Removes the store: the directory of records, or everything in the store's directory. */
  String deleteStore() throws IOException {
    if (site.kind() == StoreKind.FILE) {
      deleteTree(site.path());
      return "store_delete";
    }
    try (Stream<Path> files = Files.list(site.dir())) {
      for (Path f : files.toList()) {
        if (!f.getFileName().toString().equals(FullDisk.FILLER)) {
          deleteTree(f);
        }
      }
    }
    return "store_delete";
  }

  /** Swaps the store for a copy of itself: another inode, the same records as of the copy. */
  String replaceStore() throws IOException {
    Path storePath = site.path();
    Path copy = site.dir().resolve("copy");
    Path old = site.dir().resolve("old");
    deleteTree(copy);
    deleteTree(old);
    if (site.kind() == StoreKind.FILE) {
      Files.createDirectories(copy);
      try (Stream<Path> files = Files.list(storePath)) {
        for (Path f : files.toList()) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
      Files.move(storePath, old, StandardCopyOption.ATOMIC_MOVE);
      Files.move(copy, storePath, StandardCopyOption.ATOMIC_MOVE);
    } else {
      // The main file alone: what a checkpointed backup is, the write-ahead log left behind.
      Files.copy(storePath, copy);
      Files.move(
          copy, storePath, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
    deleteTree(old);
    return "swapped for a copy";
  }

  /**
   * Renames the store under its holders, as {@code mv leases.db moved.db} does, and lets the
   * workers go on at the new name: on SQLite the database file alone moves, without its write-ahead
   * log and shared memory, so the commits not yet checkpointed stay behind with them (the operator
   * then removes them, as orphans of a name no longer used); a directory of records moves whole.
   * The harness's workers open the store's path, so the moved store is then moved back to it, the
   * write-ahead log's content gone: what the next {@code lease run --db moved.db} met when tokens
   * repeated. Its key-lock file stays beside the store's path.
   */
  String renameStore() throws IOException {
    Path storePath = site.path();
    Path moved = site.dir().resolve("moved");
    deleteTree(moved);
    Files.move(storePath, moved, StandardCopyOption.ATOMIC_MOVE);
    deleteJournals(storePath);
    try {
      Thread.sleep(SETTLE.toMillis()); // the holders' next renewal finds the store gone
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Whatever a holder's reconnection made at the old name meanwhile goes, as the orphans did.
    deleteTree(storePath);
    deleteJournals(storePath);
    Files.move(moved, storePath, StandardCopyOption.ATOMIC_MOVE);
    return site.kind() == StoreKind.SQLITE
        ? "renamed without its write-ahead log, used at its new name"
        : "renamed, used at its new name";
  }

  /** An SQLite database's write-ahead log and shared memory, which a rename leaves behind. */
  private void deleteJournals(Path storePath) throws IOException {
    if (site.kind() == StoreKind.SQLITE) {
      for (String suffix : List.of("-wal", "-shm")) {
        Files.deleteIfExists(storePath.resolveSibling(storePath.getFileName() + suffix));
      }
    }
  }

  static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
