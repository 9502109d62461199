/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Damage done to the bytes of the store in place: a record file overwritten with random bytes
 * ({@code record_corrupt}) or cut in half ({@code record_truncate}), then repaired by deleting it;
 * the database file cut in half ({@code db_truncate}) or one of its pages overwritten with random
 * bytes ({@code db_corrupt}), both repaired by {@link LostStore}.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class StoreDamage {

  private final StoreSite site;

  StoreDamage(StoreSite site) {
    this.site = site;
  }

  /**
   * Damages one record file of the file store for 1–2 s, then does the operator's repair: the
   * record deleted.
   */
  void damageRecord(String kind, Random r) throws IOException, InterruptedException {
    List<Path> records;
    try (Stream<Path> files = Files.list(site.path())) {
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
    Map<String, Object> line = site.fault(kind);
    line.put("file", record.getFileName().toString());
    line.put("how", kind.equals("record_corrupt") ? "random bytes in place" : "cut in half");
    site.log().write(line);
    Thread.sleep(1000 + r.nextInt(1000)); // how long the damage stays before the repair
    Files.deleteIfExists(record);
    Map<String, Object> repair = StoreSite.note("repair");
    repair.put("kind", kind);
    repair.put("how", "record deleted");
    site.log().write(repair);
  }

  /** Cuts the database file in half. */
  String truncateDatabase() throws IOException {
    truncate(site.path());
    return "db_truncate";
  }

  /**
   * Overwrites one page of the database file in place with random bytes: never page 1 (the header
   * and the schema), one of the others, by the page size in the header. SQLite has no checksum on
   * its pages: it finds the damage only where the b-tree no longer makes sense, and reads a page
   * whose newest version lies in the write-ahead log from there. So the log is checkpointed into
   * the file and emptied first ({@code sqlite3}, where there is one), and the workers' connections,
   * which see the log change, drop their cached pages: their next reads come from the damaged file.
   *
   * @return how, for the fault's log line
   * @throws IOException if the file cannot be written, or has no page but the first
   */
  String corruptPage(Random r) throws IOException {
    String checkpoint = checkpoint();
    try (RandomAccessFile db = new RandomAccessFile(site.path().toFile(), "rw")) {
      byte[] header = new byte[100];
      db.readFully(header);
      // Offset 16, big-endian; 1 means 65536 (https://www.sqlite.org/fileformat.html).
      int pageSize = ((header[16] & 0xFF) << 8) | (header[17] & 0xFF);
      pageSize = pageSize == 1 ? 65536 : pageSize;
      long pages = db.length() / pageSize;
      if (pageSize < 512 || pages < 2) {
        throw new IOException(
            "no page to corrupt but the header: " + db.length() + " bytes, page size " + pageSize);
      }
      long page = 2 + (long) r.nextInt((int) Math.min(Integer.MAX_VALUE, pages - 1));
      byte[] garbage = new byte[pageSize];
      r.nextBytes(garbage);
      db.seek((page - 1) * pageSize);
      db.write(garbage);
      return "page "
          + page
          + " of "
          + pages
          + " ("
          + pageSize
          + " bytes) overwritten with random bytes, after "
          + checkpoint;
    }
  }

  /** Checkpoints the write-ahead log into the database and empties it; says how it went. */
  private String checkpoint() {
    try {
      Process sqlite =
          new ProcessBuilder(
                  "sqlite3",
                  "-cmd",
                  ".timeout 2000",
                  site.path().toString(),
                  "PRAGMA wal_checkpoint(TRUNCATE);")
              .redirectErrorStream(true)
              .start();
      String out = new String(sqlite.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!sqlite.waitFor(10, TimeUnit.SECONDS)) {
        sqlite.destroyForcibly();
        return "no checkpoint (sqlite3 did not end within 10 s)";
      }
      // busy|log frames|checkpointed frames; 0|0|0 is a log emptied into the file
      return "a checkpoint (sqlite3: " + out.trim() + ")";
    } catch (IOException noCli) {
      return "no checkpoint (no sqlite3)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "no checkpoint (interrupted)";
    }
  }

  private static void truncate(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }
  }
}
