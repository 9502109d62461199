/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Storage faults of the {@code file} and {@code sqlite} phases, one kind at a time in a seeded
 * rotation. The store lives in the phase's {@code store} directory, which is a small tmpfs (8 MB)
 * that the driver mounts itself when it runs as root and {@code mount} works; else a plain
 * directory, where a full disk is not injected (said in the driver's log).
 *
 * <ul>
 *   <li>{@code record_corrupt}, {@code record_truncate} (files): a key's record file overwritten
 *       with garbage or cut in half, in place, for 1–2 s; then the operator's repair: the record
 *       deleted.
 *   <li>{@code db_truncate} (SQLite): the database file cut in half; after 0.5 s the store is
 *       deleted and every worker restarted.
 *   <li>{@code store_delete}: the directory of records, or the database with its journal files and
 *       key lock file, deleted under running holders.
 *   <li>{@code store_replace}: the store swapped for a copy of itself (another inode, the same
 *       records as of the copy).
 *   <li>{@code read_only}: on the tmpfs, a read-only bind mount of the store directory over itself
 *       (new opens fail with EROFS; descriptors opened before keep writing); elsewhere, {@code
 *       chattr +i} (root ignores permission bits, so {@code chmod} would stop nothing); 1–3 s.
 *   <li>{@code full_disk}: the tmpfs filled to the last byte by a filler file for 1–3 s.
 *   <li>{@code exclusive_txn} (SQLite): {@code BEGIN EXCLUSIVE} held by the {@code sqlite3} command
 *       for 0.5–3 s.
 * </ul>
 *
 * <p>After a deleted, replaced or truncated store the repositories of the running workers are
 * unusable ({@code StoreLost}, by design), so the driver, as an operator would, lets 0.5 s pass for
 * the holders to notice, stops every worker (and the {@code lease run} slot's current command), and
 * starts them again on the new store. Which store faults ran, and how, goes to the driver's log
 * ({@code how}).
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class StorageFaults implements AutoCloseable {

  /** The fault kinds, by their name in the driver's log. */
  static final Set<String> KINDS =
      Set.of(
          "record_corrupt",
          "record_truncate",
          "db_truncate",
          "store_delete",
          "store_replace",
          "read_only",
          "full_disk",
          "exclusive_txn");

  /** The kinds after which the store is a new one: P1 reports a token going down apart. */
  static final Set<String> STORE_LOSSES =
      Set.of("record_corrupt", "record_truncate", "db_truncate", "store_delete", "store_replace");

  private static final Duration SETTLE = Duration.ofMillis(500);
  private static final Duration RESTART_PATIENCE = Duration.ofSeconds(40);

  private final StoreKind store;
  private final Path phaseDir;
  private final Path storeDir;
  private final Path storePath;
  private final JsonLines log;
  private final boolean mounted;
  private final Deque<String> plan = new ArrayDeque<>();
  private @Nullable Random random;
  private List<WorkerSlot> slots = List.of();
  private @Nullable LeaseRunSlot runs;
  private @Nullable NoisyWorker noisy;

  private StorageFaults(StoreKind store, Path phaseDir, JsonLines log, boolean mounted) {
    this.store = store;
    this.phaseDir = phaseDir;
    this.storeDir = phaseDir.resolve("store");
    this.storePath = store.storePath(phaseDir);
    this.log = log;
    this.mounted = mounted;
  }

  /**
   * Makes the phase's store directory, a tmpfs where possible, before any worker opens it.
   *
   * @param store the phase's repository
   * @param phaseDir the phase's directory
   * @param log the driver's log
   * @return the faults of the store
   */
  static StorageFaults prepare(StoreKind store, Path phaseDir, JsonLines log) {
    Path dir = phaseDir.resolve("store");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make " + dir, e);
    }
    boolean mounted =
        isRoot() && run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", dir.toString()) == 0;
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("note", "store");
    line.put("how", mounted ? "tmpfs 8m mounted by the driver" : "plain directory (no tmpfs)");
    log.write(line);
    return new StorageFaults(store, phaseDir, log, mounted);
  }

  /** Gives the faults what they restart after a lost store, and their seed. */
  void attach(Random random, List<WorkerSlot> slots, @Nullable LeaseRunSlot runs) {
    this.random = random;
    this.slots = slots;
    this.runs = runs;
  }

  /** Gives the faults the worker whose stderr blocks, to restart it with the others. */
  void attach(@Nullable NoisyWorker noisy) {
    this.noisy = noisy;
  }

  /** Injects the next storage fault of the rotation. */
  void inject() throws InterruptedException {
    Random r = java.util.Objects.requireNonNull(random, "attach first");
    if (plan.isEmpty()) {
      List<String> round =
          new ArrayList<>(
              store == StoreKind.SQLITE
                  ? List.of(
                      "db_truncate", "store_delete", "store_replace", "read_only", "exclusive_txn")
                  : List.of(
                      "record_corrupt",
                      "record_truncate",
                      "store_delete",
                      "store_replace",
                      "read_only"));
      if (mounted) {
        round.add("full_disk");
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
          damageRecord(kind, r);
          break;
        case "db_truncate":
          loseStore(kind, () -> truncate(storePath), true);
          break;
        case "store_delete":
          loseStore(kind, this::deleteStore, false);
          break;
        case "store_replace":
          loseStore(kind, this::replaceStore, false);
          break;
        case "read_only":
          awaitWorkersOpen();
          readOnly(hold);
          break;
        case "full_disk":
          awaitWorkersOpen();
          fullDisk(hold);
          break;
        case "exclusive_txn":
        default:
          exclusive(hold);
          break;
      }
    } catch (IOException e) {
      Map<String, Object> line = note("storage_error");
      line.put("kind", kind);
      line.put("detail", String.valueOf(e));
      log.write(line);
    }
  }

  private interface Damage {
    void apply() throws IOException;
  }

  private void damageRecord(String kind, Random r) throws IOException, InterruptedException {
    List<Path> records;
    try (Stream<Path> files = Files.list(storePath)) {
      records =
          files
              .filter(f -> f.getFileName().toString().endsWith(".json"))
              .sorted(Comparator.comparing(Path::toString))
              .toList();
    }
    if (records.isEmpty()) {
      return;
    }
    Path record = records.get(r.nextInt(records.size()));
    if (kind.equals("record_corrupt")) {
      byte[] garbage = new byte[(int) Files.size(record)];
      r.nextBytes(garbage);
      try (RandomAccessFile file = new RandomAccessFile(record.toFile(), "rw")) {
        file.seek(0);
        file.write(garbage);
      }
    } else {
      truncate(record);
    }
    Map<String, Object> line = fault(kind);
    line.put("file", record.getFileName().toString());
    line.put("how", kind.equals("record_corrupt") ? "random bytes in place" : "cut in half");
    log.write(line);
    Thread.sleep(1000 + r.nextInt(1000)); // how long the damage stays before the repair
    Files.deleteIfExists(record);
    Map<String, Object> repair = note("repair");
    repair.put("kind", kind);
    repair.put("how", "record deleted");
    log.write(repair);
  }

  private static void truncate(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }
  }

  private void loseStore(String kind, Damage damage, boolean deleteAfter)
      throws IOException, InterruptedException {
    LeaseRunSlot r = runs;
    if (r != null) {
      r.pause(); // no new lease run on a store that is going away
    }
    try {
      damage.apply();
      Map<String, Object> line = fault(kind);
      line.put("how", kind.equals("store_replace") ? "swapped for a copy" : kind);
      log.write(line);
      Thread.sleep(SETTLE.toMillis()); // the holders' next renewal finds the store gone
      if (deleteAfter) {
        deleteStore();
      }
      restartAll();
    } finally {
      if (r != null) {
        r.resume();
      }
    }
  }

  /** As an operator after a lost store: stops every worker, then starts them on the new store. */
  private void restartAll() throws InterruptedException {
    for (WorkerSlot slot : slots) {
      try {
        slot.child().send("STOP");
      } catch (UncheckedIOException died) {
        // its exit code tells below
      }
    }
    LeaseRunSlot r = runs;
    if (r != null) {
      r.awaitIdle(RESTART_PATIENCE);
    }
    NoisyWorker n = noisy;
    if (n != null) {
      n.stop(RESTART_PATIENCE);
      n.start();
    }
    for (WorkerSlot slot : slots) {
      try {
        int code = slot.child().awaitExit(RESTART_PATIENCE);
        if (code != 0) {
          Map<String, Object> line = slot.fault("crash");
          line.put("detail", "exit code " + code + " when stopped after a lost store");
          log.write(line);
        }
      } catch (AssertionError stillRunning) {
        Map<String, Object> line = slot.fault("exit_hang");
        line.put("detail", "did not stop within " + RESTART_PATIENCE + " after a lost store");
        log.write(line);
      }
      slot.respawn();
    }
    for (WorkerSlot slot : slots) {
      slot.awaitReady(RESTART_PATIENCE);
    }
    log.write(note("restart"));
  }

  /**
   * Waits until every worker's current life has opened the store (its log's {@code start} line): a
   * worker that opens it while it is read-only or full fails to start, which would be the harness's
   * doing (a respawn after a kill just before), not the library's.
   */
  private void awaitWorkersOpen() throws InterruptedException {
    long until = System.nanoTime() + RESTART_PATIENCE.toNanos();
    List<String> ids = new ArrayList<>();
    slots.forEach(slot -> ids.add(slot.id()));
    if (noisy != null) {
      ids.add(noisy.id()); // started last, at the phase's start: the first fault may come first
    }
    for (String id : ids) {
      Path workerLog = phaseDir.resolve("worker-" + id + ".jsonl");
      while (System.nanoTime() < until && !started(workerLog)) {
        Thread.sleep(50); // polling the worker's log
      }
    }
  }

  private static boolean started(Path workerLog) {
    try {
      return Files.exists(workerLog) && Files.readString(workerLog).contains("\"ev\":\"start\"");
    } catch (IOException e) {
      return false;
    }
  }

  private void deleteStore() throws IOException {
    if (store == StoreKind.FILE) {
      deleteTree(storePath);
      return;
    }
    try (Stream<Path> files = Files.list(storeDir)) {
      for (Path f : files.toList()) {
        if (!f.getFileName().toString().equals(".filler")) {
          deleteTree(f);
        }
      }
    }
  }

  private void replaceStore() throws IOException {
    Path copy = storeDir.resolve("copy");
    Path old = storeDir.resolve("old");
    deleteTree(copy);
    deleteTree(old);
    if (store == StoreKind.FILE) {
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
  }

  private static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void readOnly(Duration hold) throws InterruptedException {
    String target = storeDir.toString();
    boolean bound = mounted && command("mount", "--bind", target, target) == 0;
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
      frozen.add(store == StoreKind.FILE ? storePath.toString() : target);
      if (store == StoreKind.SQLITE) {
        frozen.add(storePath.toString());
      }
      List<String> freeze = new ArrayList<>(List.of("chattr", "+i"));
      freeze.addAll(frozen);
      if (command(freeze.toArray(String[]::new)) != 0) {
        unfreeze(frozen);
        log.write(note("read_only_skipped"));
        return;
      }
      how = "chattr +i";
    }
    Map<String, Object> line = fault("read_only");
    line.put("how", how);
    line.put("ms", hold.toMillis());
    log.write(line);
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
    log.write(note("writable"));
  }

  private void unfreeze(List<String> frozen) {
    List<String> thaw = new ArrayList<>(List.of("chattr", "-i"));
    thaw.addAll(frozen);
    command(thaw.toArray(String[]::new));
  }

  /** Runs a command; a failure goes to the driver's log with the command's output. */
  private int command(String... command) {
    StringBuilder output = new StringBuilder();
    int code = run(output, command);
    if (code != 0) {
      Map<String, Object> line = note("command_failed");
      line.put("command", String.join(" ", command));
      line.put("code", code);
      line.put("output", output.toString());
      log.write(line);
    }
    return code;
  }

  private void fullDisk(Duration hold) throws IOException, InterruptedException {
    Path filler = storeDir.resolve(".filler");
    byte[] chunk = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
      }
    } catch (IOException full) {
      // ENOSPC: the disk is full, which is the point
    }
    Map<String, Object> line = fault("full_disk");
    line.put("how", "tmpfs filled (" + Files.size(filler) + " bytes of filler)");
    line.put("ms", hold.toMillis());
    log.write(line);
    Thread.sleep(hold.toMillis()); // the fault itself
    Files.deleteIfExists(filler);
    log.write(note("space"));
  }

  private void exclusive(Duration hold) throws IOException, InterruptedException {
    Process sqlite;
    try {
      sqlite =
          new ProcessBuilder("sqlite3", storePath.toString()).redirectErrorStream(true).start();
    } catch (IOException noCli) {
      log.write(note("exclusive_txn_skipped"));
      return;
    }
    try (OutputStream in = sqlite.getOutputStream();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(sqlite.getInputStream(), StandardCharsets.UTF_8))) {
      in.write(".timeout 3000\nBEGIN EXCLUSIVE;\n.print LOCKED\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      String reply = out.readLine();
      Map<String, Object> line = fault("exclusive_txn");
      line.put("how", "sqlite3 BEGIN EXCLUSIVE: " + reply);
      line.put("ms", hold.toMillis());
      log.write(line);
      Thread.sleep(hold.toMillis()); // the fault itself: how long the transaction stays open
      in.write("COMMIT;\n.quit\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    } finally {
      if (!sqlite.waitFor(5, TimeUnit.SECONDS)) {
        sqlite.destroyForcibly();
      }
    }
    log.write(note("exclusive_txn_end"));
  }

  private Map<String, Object> fault(String kind) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("fault", kind);
    line.put("w", "store");
    return line;
  }

  private static Map<String, Object> note(String what) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("note", what);
    return line;
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  /** Runs a command to its end; its exit code, or -1 if it could not run. */
  static int run(String... command) {
    return run(new StringBuilder(), command);
  }

  private static int run(StringBuilder output, String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
      return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Unmounts the store's tmpfs, after every worker stopped. */
  @Override
  public void close() {
    // Every mount stacked on the store directory: the tmpfs, and a read-only bind mount left by a
    // fault that was cut short.
    for (int i = 0; mounted && i < 3; i++) {
      if (run("umount", "-l", storeDir.toString()) != 0) {
        break;
      }
    }
  }
}
