package dev.rivus.agentkit.lease.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Makes the command that {@code lease run} starts die with the {@code lease} process, so that a
 * {@code kill -9} of {@code lease} cannot leave the command running unfenced.
 *
 * <p>On Linux the command is started through util-linux {@code setpriv --pdeathsig KILL}, which
 * asks the kernel to send SIGKILL to the command when its parent dies. Between the fork and that
 * request the parent could already have died; a one-line {@code sh} check closes that window by
 * comparing the command's parent pid with ours before it {@code exec}s the command, so the pid, the
 * exit code and the signals of the command are its own.
 *
 * <p>The kernel ties the death signal to the <em>thread</em> that started the child: the command
 * must be started from a thread that lives as long as the {@code lease} process (its main thread).
 *
 * <p>Where {@code setpriv} is missing or too old (macOS, BSD, minimal containers) the command runs
 * unguarded and {@link #warning()} says so.
 */
final class ParentDeathGuard {

  /**
   * The sh program run between setpriv and the command: bail out if our parent is gone already, and
   * report a missing command as {@code lease run} would (sh's own message names the shell).
   */
  static final String CHECK =
      "[ \"$PPID\" = \"$1\" ] || exit 70; shift;"
          + " command -v -- \"$1\" >/dev/null 2>&1"
          + " || { printf '%s\\n' \"$0: cannot run $1: command not found\" >&2; exit 127; };"
          + " exec \"$@\"";

  /** The shell's {@code $0}: the prefix of any message the shell itself prints. */
  static final String NAME = "lease run";

  private final @Nullable Path setpriv;

  private ParentDeathGuard(@Nullable Path setpriv) {
    this.setpriv = setpriv;
  }

  /**
   * Finds {@code setpriv} on the {@code PATH} and checks that it supports {@code --pdeathsig}.
   *
   * @param environment the process environment, for {@code PATH}
   * @return the guard; inactive if no usable {@code setpriv} was found
   */
  static ParentDeathGuard detect(Map<String, String> environment) {
    return new ParentDeathGuard(
        findSetpriv(environment).filter(ParentDeathGuard::works).orElse(null));
  }

  /** A guard that wraps nothing, for systems without setpriv. */
  static ParentDeathGuard inactive() {
    return new ParentDeathGuard(null);
  }

  boolean active() {
    return setpriv != null;
  }

  /**
   * Returns the command line to start: the command itself, or the command behind setpriv.
   *
   * @param command the user's command and arguments
   * @return the argv to hand to {@link ProcessBuilder}
   */
  List<String> wrap(List<String> command) {
    if (setpriv == null) {
      return command;
    }
    List<String> argv = new ArrayList<>();
    argv.add(setpriv.toString());
    argv.add("--pdeathsig");
    argv.add("KILL");
    argv.add("--");
    argv.add("/bin/sh");
    argv.add("-c");
    argv.add(CHECK);
    argv.add(NAME);
    argv.add(Long.toString(ProcessHandle.current().pid()));
    argv.addAll(command);
    return argv;
  }

  Optional<String> warning() {
    return active()
        ? Optional.empty()
        : Optional.of(
            "warning: setpriv --pdeathsig is not available here, so if lease is killed with"
                + " SIGKILL its command keeps running (see docs/cli.md)");
  }

  private static Optional<Path> findSetpriv(Map<String, String> environment) {
    if (!Files.isExecutable(Path.of("/bin/sh"))) {
      return Optional.empty();
    }
    String path = environment.getOrDefault("PATH", "/usr/bin:/bin");
    for (String directory : path.split(":")) {
      if (directory.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(directory, "setpriv");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** util-linux gained --pdeathsig in 2.33; older ones reject the option, so ask it once. */
  private static boolean works(Path setpriv) {
    try {
      Process probe =
          new ProcessBuilder(setpriv.toString(), "--pdeathsig", "KILL", "--", "/bin/sh", "-c", ":")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!probe.waitFor(5, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return false;
      }
      return probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
