/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code exclusive_txn} (SQLite): another process, the {@code sqlite3} command, holds {@code BEGIN
 * EXCLUSIVE} on the database for a while, then commits. Skipped ({@code exclusive_txn_skipped})
 * where there is no {@code sqlite3}.
 *
 * <p>Not thread-safe: the fault loop owns it.
 */
final class ExclusiveTransaction {

  private final StoreSite site;

  ExclusiveTransaction(StoreSite site) {
    this.site = site;
  }

  void hold(Duration hold) throws IOException, InterruptedException {
    Process sqlite;
    try {
      sqlite =
          new ProcessBuilder("sqlite3", site.path().toString()).redirectErrorStream(true).start();
    } catch (IOException noCli) {
      site.writeNote("exclusive_txn_skipped");
      return;
    }
    try (OutputStream in = sqlite.getOutputStream();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(sqlite.getInputStream(), StandardCharsets.UTF_8))) {
      in.write(".timeout 3000\nBEGIN EXCLUSIVE;\n.print LOCKED\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      String reply = out.readLine();
      Map<String, Object> line = site.fault("exclusive_txn");
      line.put("how", "sqlite3 BEGIN EXCLUSIVE: " + reply);
      line.put("ms", hold.toMillis());
      site.log().write(line);
      Thread.sleep(hold.toMillis()); // the fault itself: how long the transaction stays open
      in.write("COMMIT;\n.quit\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    } finally {
      if (!sqlite.waitFor(5, TimeUnit.SECONDS)) {
        sqlite.destroyForcibly();
      }
    }
    site.writeNote("exclusive_txn_end");
  }
}
