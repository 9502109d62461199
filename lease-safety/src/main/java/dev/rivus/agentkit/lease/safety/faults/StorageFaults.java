/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.safety.workers.LeaseRunSlot;
import dev.rivus.agentkit.lease.safety.workers.NoisyWorker;
import dev.rivus.agentkit.lease.safety.workers.WorkerSlot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Storage faults of the {@code file} and {@code sqlite} phases: chooses the next kind from a seeded
 * rotation, has the class that does it do it, and logs a failure to do it ({@code storage_error}).
 * The store lives in the phase's {@code store} directory, which is a small tmpfs (8 MB) that the
 * driver mounts itself when it runs as root and {@code mount} works (and {@link #NO_TMPFS_PROPERTY}
 * does not forbid it); else a plain directory, where a full disk is injected with {@code strace},
 * or not at all without it (said in the driver's log).
 *
 * <ul>
 *   <li>{@code record_corrupt}, {@code record_truncate} (files), {@code db_truncate}, {@code
 *       db_corrupt} (SQLite): {@link StoreDamage}.
 *   <li>{@code store_delete}, {@code store_replace}, and the restart of every worker after a lost
 *       store: {@link LostStore}, {@link WorkerRestarts}.
 *   <li>{@code read_only}: {@link ReadOnlyStore}; {@code full_disk}: {@link FullDisk}.
 *   <li>{@code exclusive_txn} (SQLite): {@link ExclusiveTransaction}.
 * </ul>
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
public final class StorageFaults implements AutoCloseable {

  /** The fault kinds, by their name in the driver's log. */
  public static final Set<String> KINDS =
      Set.of(
          "record_corrupt",
          "record_truncate",
          "db_truncate",
          "db_corrupt",
          "store_delete",
          "store_replace",
          "store_rename",
          "read_only",
          "full_disk",
          "exclusive_txn");

  /** The kinds after which the store is a new one: P1 reports a token going down apart. */
  public static final Set<String> STORE_LOSSES =
      Set.of(
          "record_corrupt",
          "record_truncate",
          "db_truncate",
          "db_corrupt",
          "store_delete",
          "store_replace",
          "store_rename");

  /**
   * A system property that limits the rotation to the kinds it names, comma-separated (those the
   * phase can do; if none, it is ignored): {@code -Dlease.safety.storage-faults=db_corrupt}.
   */
  static final String ONLY_PROPERTY = "lease.safety.storage-faults";

  /**
   * A system property that keeps the driver from mounting a tmpfs on the store, as where it cannot
   * ({@code --no-tmpfs}): a full disk is then injected with {@code strace}, and a read-only store
   * made with {@code chattr +i}.
   */
  public static final String NO_TMPFS_PROPERTY = "lease.safety.no-tmpfs";

  private final StoreSite site;
  private final WorkerRestarts workers;
  private final StoreDamage damage;
  private final LostStore lost;
  private final ReadOnlyStore readOnly;
  private final FullDisk fullDisk;
  private final ExclusiveTransaction exclusive;
  private final boolean storeLosses;
  private final Deque<String> plan = new ArrayDeque<>();
  private @Nullable Random random;

  private StorageFaults(StoreSite site, boolean storeLosses) {
    this.site = site;
    this.storeLosses = storeLosses;
    this.workers = new WorkerRestarts(site);
    this.damage = new StoreDamage(site);
    this.lost = new LostStore(site, workers);
    this.readOnly = new ReadOnlyStore(site);
    this.fullDisk = new FullDisk(site);
    this.exclusive = new ExclusiveTransaction(site);
  }

  /**
   * Makes the phase's store directory, a tmpfs where possible, before any worker opens it.
   *
   * @param store the phase's repository
   * @param phaseDir the phase's directory
   * @param log the driver's log
   * @param storeLosses whether the rotation has the kinds that lose the store ({@link
   *     #STORE_LOSSES}): not in a phase without fencing at the resource
   * @return the faults of the store
   */
  public static StorageFaults prepare(
      StoreKind store, Path phaseDir, JsonLines log, boolean storeLosses) {
    Path dir = phaseDir.resolve("store");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + dir, e);
    }
    boolean forbidden = Boolean.getBoolean(NO_TMPFS_PROPERTY);
    boolean mounted =
        !forbidden
            && isRoot()
            && run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir.toString()) == 0;
    StorageFaults faults =
        new StorageFaults(
            new StoreSite(store, phaseDir, dir, store.storePath(phaseDir), mounted, log),
            storeLosses);
    Map<String, Object> line = StoreSite.note("store");
    line.put(
        "how",
        mounted
            ? "tmpfs 8m mounted by the driver"
            : forbidden
                ? "plain directory (no tmpfs: " + NO_TMPFS_PROPERTY + ")"
                : "plain directory (no tmpfs)");
    line.put("full_disk", faults.fullDisk.way());
    log.write(line);
    return faults;
  }

  /** Gives the faults what they restart after a lost store, and their seed. */
  void attach(Random random, List<WorkerSlot> slots, @Nullable LeaseRunSlot runs) {
    this.random = random;
    workers.attach(slots, runs);
  }

  /**
   * Gives the faults the worker whose stderr blocks, to restart it with the others.
   *
   * @param noisy the noisy worker, or {@code null}
   */
  public void attach(@Nullable NoisyWorker noisy) {
    workers.attach(noisy);
  }

  /** Injects the next storage fault of the rotation. */
  void inject() throws InterruptedException {
    Random r = Objects.requireNonNull(random, "attach first");
    if (plan.isEmpty()) {
      List<String> round =
          new ArrayList<>(
              site.kind() == StoreKind.SQLITE
                  ? List.of(
                      "db_truncate",
                      "db_corrupt",
                      "store_delete",
                      "store_replace",
                      "store_rename",
                      "read_only",
                      "exclusive_txn")
                  : List.of(
                      "record_corrupt",
                      "record_truncate",
                      "store_delete",
                      "store_replace",
                      "store_rename",
                      "read_only"));
      if (fullDisk.available()) {
        round.add("full_disk");
      }
      if (!storeLosses) {
        round.removeAll(STORE_LOSSES);
      }
      String only = System.getProperty(ONLY_PROPERTY, "").trim();
      if (!only.isEmpty()) {
        // To attack one kind over and over: the kinds named that this phase can do, else all.
        List<String> named = new ArrayList<>(round);
        named.retainAll(List.of(only.split("\\s*,\\s*")));
        round = named.isEmpty() ? round : named;
      }
      Collections.shuffle(round, r);
      plan.addAll(round);
    }
    String kind = plan.removeFirst();
    Duration hold = Duration.ofMillis(500 + r.nextInt(2500));
    try {
      switch (kind) {
        case "record_corrupt":
        case "record_truncate":
          damage.damageRecord(kind, r);
          break;
        case "db_truncate":
          lost.lose(kind, damage::truncateDatabase, true);
          break;
        case "db_corrupt":
          lost.lose(kind, () -> damage.corruptPage(r), true);
          break;
        case "store_delete":
          lost.lose(kind, lost::deleteStore, false);
          break;
        case "store_replace":
          lost.lose(kind, lost::replaceStore, false);
          break;
        case "store_rename":
          lost.lose(kind, lost::renameStore, false);
          break;
        case "read_only":
          workers.awaitWorkersOpen();
          readOnly.hold(hold);
          break;
        case "full_disk":
          workers.awaitWorkersOpen();
          fullDisk.hold(hold);
          break;
        case "exclusive_txn":
        default:
          exclusive.hold(hold);
          break;
      }
    } catch (IOException e) {
      Map<String, Object> line = StoreSite.note("storage_error");
      line.put("kind", kind);
      line.put("detail", String.valueOf(e));
      site.log().write(line);
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /**
   * Runs a command to its end; its exit code, or -1 if it could not run.
   *
   * @see Commands#run(String...)
   */
  static int run(String... command) {
    return Commands.run(command);
  }

  /** Unmounts the store's tmpfs, after every worker stopped. */
  @Override
  public void close() {
    // Every mount stacked on the store directory: the tmpfs, and a read-only bind mount left by a
    // fault that was cut short.
    for (int i = 0; site.tmpfs() && i < 3; i++) {
      if (run("umount", "-l", site.dir().toString()) != 0) {
        break;
      }
    }
  }
}
