/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Damage done to the bytes of the store in place: a record file overwritten with random bytes
 * ({@code record_corrupt}) or cut in half ({@code record_truncate}), then repaired by deleting it;
 * the database file cut in half ({@code db_truncate}, repaired by {@link LostStore}).
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

  private static void truncate(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.setLength(raf.length() / 2);
    }
  }
}
