/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is synced, and when, seen in the system calls of a child JVM run under {@code strace}: every
 * acquisition's WAL sync happens before {@code acquire} returns, and renewals (saved alone or in a
 * batch) and releases are not synced unless asked for. A power cut cannot be staged in a test; the
 * syncs it relies on can be watched.
 */
@Tag("cross-process")
class SqliteDurabilityTest {

  private static final int CYCLES = 30;

  @TempDir Path dir;

  @Test
  void eachAcquisitionIsSyncedBeforeAcquireReturnsAndRenewalsAndReleasesAreNot() throws Exception {
    List<String> trace = traceCycles(false);

    List<Integer> syncsBeforeEachAcquisition = syncsBetweenAcquisitions(trace);

    assertThat(syncsBeforeEachAcquisition).as("acquisitions traced").hasSize(CYCLES);
    // The first acquisition also follows the creation of the renewed record, which is synced too.
    assertThat(syncsBeforeEachAcquisition.get(0)).as("WAL syncs before the first").isPositive();
    assertThat(syncsBeforeEachAcquisition.subList(1, CYCLES))
        .as(
            "WAL syncs since the previous acquisition (two unsynced renewals, an unsynced release,"
                + " then the acquisition)")
        .containsOnly(1);
  }

  @Test
  void syncEveryWriteAlsoSyncsRenewalsAndTheRelease() throws Exception {
    List<String> trace = traceCycles(true);

    List<Integer> syncsBeforeEachAcquisition = syncsBetweenAcquisitions(trace);

    assertThat(syncsBeforeEachAcquisition.subList(1, CYCLES))
        .as(
            "WAL syncs since the previous acquisition (two synced renewals, a synced release, then"
                + " the acquisition)")
        .containsOnly(4);
  }

  private List<String> traceCycles(boolean syncEveryWrite) throws Exception {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/strace"))).as("strace is installed").isTrue();
    Path db = dir.resolve("leases.db");
    Path log = dir.resolve("strace.log");
    List<String> command =
        new ArrayList<>(
            List.of(
                "/usr/bin/strace",
                "-f",
                "-y",
                "-qq",
                "-s",
                "64",
                "-o",
                log.toString(),
                "-e",
                "trace=fsync,fdatasync,write",
                ChildJvm.javaBinary(),
                "-Xmx96m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                SqliteChildMain.class.getName(),
                "cycles",
                db.toString(),
                Integer.toString(CYCLES),
                Boolean.toString(syncEveryWrite)));
    Process child =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("child.out").toFile())
            .start();
    try {
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("traced child finished").isTrue();
    } finally {
      child.destroyForcibly();
    }
    assertThat(child.exitValue())
        .as("exit code; output: %s", Files.readString(dir.resolve("child.out")))
        .isZero();
    assertThat(Files.readString(dir.resolve("child.out"))).contains("DONE");
    return Files.readAllLines(log);
  }

  /** For each line the child printed after an acquisition, the WAL syncs since the one before. */
  private static List<Integer> syncsBetweenAcquisitions(List<String> trace) {
    List<Integer> counts = new ArrayList<>();
    int syncs = 0;
    for (String line : trace) {
      if (line.contains("sync(") && line.contains("leases.db-wal>")) {
        syncs++;
      } else if (line.contains("write(") && line.contains("\"ACQUIRED ")) {
        counts.add(syncs);
        syncs = 0;
      }
    }
    return counts;
  }
}
