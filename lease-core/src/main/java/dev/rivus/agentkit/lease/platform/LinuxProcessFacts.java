/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Process facts read from a Linux proc file system. A holder is judged only when it shares this
 * process's table (same boot id and pid namespace); then its pid is looked up directly and its
 * start time compared, so a reused pid counts as gone. Whatever cannot be read or could be hidden
 * ({@code hidepid}) is {@link Liveness#UNKNOWN}, never {@link Liveness#GONE}. Thread-safe: the
 * current identity is read once, and every judgement reads the proc file system afresh.
 */
final class LinuxProcessFacts implements ProcessFacts {

  private static final String TICKS = "ticks:";
  private static final Pattern PID_NAMESPACE = Pattern.compile("pid:\\[[0-9]+\\]");
  private static final Pattern RECORDED_TICKS = Pattern.compile("ticks:[0-9]{1,18}");

  private final Path proc;
  private final BooleanSupplier seesHiddenProcesses;
  private final ProcessIdentity self;

  /** Reads the facts of the current process from the proc file system mounted at {@code proc}. */
  LinuxProcessFacts(Path proc) {
    this(proc, ProcessHandle.current().pid(), () -> ProcVisibility.seesHiddenProcesses(proc));
  }

  /**
   * Reads the facts of process {@code ownPid} from {@code proc}, for tests over a fake tree.
   *
   * @param seesHiddenProcesses whether this process sees processes that {@code hidepid} hides
   *     (root); asked on every judgement of a missing pid under {@code hidepid}
   */
  LinuxProcessFacts(Path proc, long ownPid, BooleanSupplier seesHiddenProcesses) {
    this.proc = proc;
    this.seesHiddenProcesses = seesHiddenProcesses;
    // A proc mounted for another pid namespace numbers processes differently: our pid would name
    // another process there, so nothing read through it may be recorded as ours.
    boolean ownView = showsOwnPidNamespace(ownPid);
    this.self =
        new ProcessIdentity(
            HostNames.current(),
            readBootId(),
            ownView ? readPidNamespace() : null,
            ownPid,
            ownView ? processStart(ownPid) : null);
  }

  @Override
  public ProcessIdentity currentProcess() {
    return self;
  }

  @Override
  public Liveness liveness(ProcessIdentity holder) {
    if (!self.sharesProcessTableWith(holder)) {
      return Liveness.UNKNOWN;
    }
    String recorded = holder.processStart();
    if (recorded == null || !RECORDED_TICKS.matcher(recorded).matches()) {
      return Liveness.UNKNOWN;
    }
    long recordedTicks = Long.parseLong(recorded.substring(TICKS.length()));
    ProcStat stat;
    try {
      stat = readStat(holder.pid());
    } catch (NoSuchFileException missing) {
      return mayBeHidden() ? Liveness.UNKNOWN : Liveness.GONE;
    } catch (IOException | RuntimeException unreadable) {
      return Liveness.UNKNOWN;
    }
    if (stat == null) {
      return Liveness.UNKNOWN;
    }
    if (stat.startTicks() != recordedTicks || stat.hasExited()) {
      return Liveness.GONE;
    }
    return Liveness.ALIVE;
  }

  /**
   * Reads the start time of process {@code pid} as this platform records it.
   *
   * @return {@code "ticks:"} and the clock ticks since boot, or {@code null} if it cannot be read
   */
  @Nullable String processStart(long pid) {
    try {
      ProcStat stat = readStat(pid);
      return stat == null ? null : TICKS + stat.startTicks();
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  private @Nullable ProcStat readStat(long pid) throws IOException {
    // ISO-8859-1 keeps every byte: a command name is not necessarily valid UTF-8.
    byte[] line = Files.readAllBytes(proc.resolve(Long.toString(pid)).resolve("stat"));
    return ProcStat.parse(new String(line, StandardCharsets.ISO_8859_1));
  }

  /**
   * Only a missing pid is ambiguous: hidepid hides processes, it never shows another in their
   * place.
   */
  private boolean mayBeHidden() {
    return ProcVisibility.mayHideProcesses(proc) && !seesHiddenProcesses.getAsBoolean();
  }

  private boolean showsOwnPidNamespace(long ownPid) {
    try {
      return Files.readSymbolicLink(proc.resolve("self")).toString().equals(Long.toString(ownPid));
    } catch (IOException | RuntimeException unreadable) {
      return false;
    }
  }

  private @Nullable String readBootId() {
    try {
      String bootId =
          Files.readString(proc.resolve("sys/kernel/random/boot_id"), StandardCharsets.UTF_8)
              .trim();
      return bootId.isEmpty() ? null : bootId;
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  private @Nullable String readPidNamespace() {
    try {
      String namespace = Files.readSymbolicLink(proc.resolve("self/ns/pid")).toString();
      return PID_NAMESPACE.matcher(namespace).matches() ? namespace : null;
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }
}
