/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * CPU time of other processes on this Linux machine, from {@code /proc}: a snapshot of {@code utime
 * + stime} of every process of one command name, and of the whole machine from {@code /proc/stat}.
 * Ticks are {@code USER_HZ}, 100 a second on Linux. Immutable.
 */
final class ProcessCpu {

  private static final double TICKS_PER_SECOND = 100;

  /** Process id to its own CPU ticks, and to the ticks of its children it has waited for. */
  private final Map<Long, long[]> ticks;

  private final long machineBusy;
  private final long machineTotal;

  private ProcessCpu(Map<Long, long[]> ticks, long machineBusy, long machineTotal) {
    this.ticks = ticks;
    this.machineBusy = machineBusy;
    this.machineTotal = machineTotal;
  }

  /**
   * Reads the processes whose command name is {@code comm}, and the machine's counters.
   *
   * @param comm the command name, as in {@code /proc/PID/comm}
   * @return the snapshot
   * @throws IOException if {@code /proc} cannot be read
   */
  static ProcessCpu of(String comm) throws IOException {
    Map<Long, long[]> ticks = new HashMap<>();
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path pid : pids) {
        String stat;
        try {
          stat = Files.readString(pid.resolve("stat"), StandardCharsets.UTF_8);
        } catch (NoSuchFileException gone) {
          continue;
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (!stat.substring(open + 1, close).equals(comm)) {
          continue;
        }
        // After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
        String[] fields = stat.substring(close + 2).split(" ");
        long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        long children = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        ticks.put(Long.parseLong(pid.getFileName().toString()), new long[] {own, children});
      }
    }
    List<String> cpu = List.of(Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split(" +"));
    long total = 0;
    // user nice system idle iowait irq softirq steal; guest time is already in user and nice.
    for (int i = 1; i <= 8 && i < cpu.size(); i++) {
      total += Long.parseLong(cpu.get(i));
    }
    long idle = Long.parseLong(cpu.get(4)) + Long.parseLong(cpu.get(5));
    return new ProcessCpu(ticks, total - idle, total);
  }

  /**
   * CPU seconds the given processes spent between {@code before} and this snapshot; a process
   * started in between counts whole.
   *
   * @param before the earlier snapshot
   * @param pids the processes, or null for all
   * @return seconds of CPU
   */
  double secondsSince(ProcessCpu before, @Nullable Set<Long> pids) {
    long sum = 0;
    for (Map.Entry<Long, long[]> now : ticks.entrySet()) {
      if (pids != null && !pids.contains(now.getKey())) {
        continue;
      }
      long[] then = before.ticks.get(now.getKey());
      sum += now.getValue()[0] - (then == null ? 0 : then[0]);
      // Children that ended and were waited for (a server's ended sessions) count here.
      sum += now.getValue()[1] - (then == null ? 0 : then[1]);
    }
    return sum / TICKS_PER_SECOND;
  }

  /**
   * The share of the whole machine (all cores) that was busy between {@code before} and this
   * snapshot.
   *
   * @param before the earlier snapshot
   * @return from 0 to 1
   */
  double machineBusySince(ProcessCpu before) {
    return (machineBusy - before.machineBusy) / (double) (machineTotal - before.machineTotal);
  }
}
