/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Makes the whole process tree of the command that {@code lease run} starts stop with the lease: on
 * a loss, on a signal to {@code lease}, when the command's own process exits, and when {@code
 * lease} itself is killed with {@code kill -9}.
 *
 * <p>On Linux the command is started through a small {@code sh} reaper, itself started through
 * util-linux {@code setpriv --pdeathsig USR2}, which asks the kernel to signal the reaper when
 * {@code lease} dies. The reaper starts the command with util-linux {@code setsid}, so the command
 * and everything it starts form a process group (and session) of their own, and:
 *
 * <ul>
 *   <li>on SIGTERM from {@code lease} (a loss, or SIGTERM, SIGINT or SIGHUP to {@code lease}),
 *       sends SIGTERM to the whole group, and SIGKILL to it after the grace;
 *   <li>on SIGUSR2 ({@code lease} died), sends SIGKILL to the whole group at once;
 *   <li>when the command's own process exits, stops what is left of its group the same way
 *       (SIGTERM, SIGKILL after the grace), and exits with the command's status only once the group
 *       is gone.
 * </ul>
 *
 * <p>A process that leaves the group on purpose ({@code setsid}, a daemon's double fork with its
 * own session) is out of reach, as it is for a shell's job control. The command's SIGINT and
 * SIGQUIT are reset to their defaults where {@code env --default-signal} exists (coreutils 8.31 and
 * later); elsewhere they stay ignored, as for any background job of a shell. Between the fork and
 * the death-signal request {@code lease} could already have died; the reaper compares its parent
 * pid with ours before it starts anything.
 *
 * <p>The kernel ties the death signal to the <em>thread</em> that started the child: the command
 * must be started from a thread that lives as long as the {@code lease} process (its main thread).
 *
 * <p>Where {@code setpriv} or {@code setsid} is missing or too old (macOS, BSD, minimal containers)
 * the command runs unguarded, as a direct child, and {@link #warning()} says so.
 */
final class ParentDeathGuard {

  /**
   * The reaper, run by {@code sh} as {@code sh -c REAPER NAME LEASE_PID GRACE_SECONDS COMMAND...}.
   */
  static final String REAPER =
      String.join(
          "\n",
          "[ \"$PPID\" = \"$1\" ] || exit 70",
          "grace=$2; shift 2",
          "command -v -- \"$1\" >/dev/null 2>&1 || {",
          "  printf '%s\\n' \"$0: cannot run $1: command not found\" >&2; exit 127; }",
          "reset=; env --default-signal=INT,QUIT true 2>/dev/null"
              + " && reset='env --default-signal=INT,QUIT --'",
          "exec 3<&0",
          "setsid $reset \"$@\" <&3 3<&- &",
          "group=$!",
          "exec 3<&-",
          "timer=",
          "stop() {",
          "  kill -TERM -$group 2>/dev/null",
          // The timer is a process of its own with none of the LEASE_ variables (so that it never
          // passes for a process of the command, see PreviousTree) and none of lease's streams;
          // told to stop, it leaves nothing behind and kills nothing.
          "  [ -n \"$timer\" ] || {",
          "    env -u LEASE_KEY -u LEASE_TOKEN -u LEASE_RUN_PID /bin/sh -c"
              + " 'sleep \"$1\" & s=$!; trap \"kill $s; exit 0\" TERM; wait $s; kill -KILL -$2'"
              + " timer \"$grace\" \"$group\" >/dev/null 2>&1 &",
          "    timer=$!; }",
          "}",
          "trap stop TERM",
          "trap 'kill -KILL -$group 2>/dev/null; [ -z \"$timer\" ] || kill $timer 2>/dev/null;"
              + " exit 137' USR2",
          "trap '' INT QUIT HUP",
          "while :; do wait $group; status=$?; kill -0 $group 2>/dev/null || break; done",
          "kill -0 -$group 2>/dev/null && stop",
          "while kill -0 -$group 2>/dev/null; do sleep 0.05; done",
          "[ -z \"$timer\" ] || kill $timer 2>/dev/null",
          "exit $status");

  /** The shell's {@code $0}: the prefix of any message the shell itself prints. */
  static final String NAME = "lease run";

  private final @Nullable Path setpriv;
  private @Nullable Process probe;
  private boolean works;

  private ParentDeathGuard(@Nullable Path setpriv, @Nullable Process probe) {
    this.setpriv = setpriv;
    this.probe = probe;
    this.works = setpriv != null && probe == null;
  }

  /**
   * Finds {@code setpriv} on the {@code PATH} and starts checking that it supports {@code
   * --pdeathsig}: the check runs while the lease is acquired, and {@link #active()} waits for it.
   *
   * @param environment the process environment, for {@code PATH}
   * @return the guard; inactive if no usable {@code setpriv} was found
   */
  static ParentDeathGuard detect(Map<String, String> environment) {
    if (find(environment, "setsid").isEmpty()) {
      return inactive();
    }
    Optional<Path> setpriv = find(environment, "setpriv");
    if (setpriv.isEmpty()) {
      return inactive();
    }
    Process probe = startProbe(setpriv.get());
    return probe == null ? inactive() : new ParentDeathGuard(setpriv.get(), probe);
  }

  /** A guard that wraps nothing, for systems without setpriv. */
  static ParentDeathGuard inactive() {
    return new ParentDeathGuard(null, null);
  }

  /**
   * Whether the command runs behind the reaper; waits for the check of setpriv if it still runs.
   */
  synchronized boolean active() {
    Process running = probe;
    if (running != null) {
      works = probeSucceeded(running);
      probe = null;
    }
    return works;
  }

  /**
   * Returns the command line to start: the command itself, or the reaper behind setpriv.
   *
   * @param command the user's command and arguments
   * @param grace how long the command's group may take to exit after SIGTERM
   * @return the argv to hand to {@link ProcessBuilder}
   */
  List<String> wrap(List<String> command, Duration grace) {
    if (!active() || setpriv == null) {
      return command;
    }
    List<String> argv = new ArrayList<>();
    argv.add(setpriv.toString());
    argv.add("--pdeathsig");
    argv.add("USR2");
    argv.add("--");
    argv.add("/bin/sh");
    argv.add("-c");
    argv.add(REAPER);
    argv.add(NAME);
    argv.add(Long.toString(ProcessHandle.current().pid()));
    argv.add(String.format(Locale.ROOT, "%.3f", grace.toMillis() / 1000.0));
    argv.addAll(command);
    return argv;
  }

  Optional<String> warning() {
    return active()
        ? Optional.empty()
        : Optional.of(
            "warning: setpriv --pdeathsig or setsid is not available here, so the processes the"
                + " command starts are not stopped with it, and if lease is killed with SIGKILL the"
                + " command keeps running (see docs/cli.md)");
  }

  private static Optional<Path> find(Map<String, String> environment, String program) {
    if (!Files.isExecutable(Path.of("/bin/sh"))) {
      return Optional.empty();
    }
    String path = environment.getOrDefault("PATH", "/usr/bin:/bin");
    for (String directory : path.split(":")) {
      if (directory.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(directory, program);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** util-linux gained --pdeathsig in 2.33; older ones reject the option, so ask it once. */
  private static @Nullable Process startProbe(Path setpriv) {
    try {
      return new ProcessBuilder(
              setpriv.toString(), "--pdeathsig", "KILL", "--", "/bin/sh", "-c", ":")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      return null;
    }
  }

  private static boolean probeSucceeded(Process probe) {
    try {
      if (!probe.waitFor(5, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return false;
      }
      return probe.exitValue() == 0;
    } catch (InterruptedException e) {
      probe.destroyForcibly();
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
