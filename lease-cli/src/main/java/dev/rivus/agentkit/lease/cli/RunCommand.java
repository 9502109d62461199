/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lease run}: runs a command while holding a lease, and exits with the command's code. */
@Command(
    name = "run",
    header = "Run a command while holding a lease; exit with its code.",
    customSynopsis = "lease run [OPTIONS] KEY -- COMMAND [ARGS...]",
    description = {
      "Acquires the lease KEY, runs COMMAND with LEASE_KEY and LEASE_TOKEN (the generation, a fencing"
          + " token that only rises) in its environment, renews the lease while it runs and releases"
          + " it when it exits. A token is the greater of the stored one + 1 and the wall clock in"
          + " microseconds (a 16-digit number), so tokens keep rising even after the store was"
          + " deleted, renamed or restored from an old copy (unless the clock was set back).",
      "",
      "Fails fast if another live process holds the lease, unless --wait is given. If the lease is"
          + " lost while COMMAND runs, COMMAND gets SIGTERM, then SIGKILL after --grace. On Linux"
          + " COMMAND runs in a process group of its own (setsid) behind a reaper (setpriv"
          + " --pdeathsig): the whole group gets those signals, is stopped when COMMAND exits, and is"
          + " killed at once if lease is killed, even with kill -9.",
      "COMMAND runs as fenced work, under the store's key lock: after a takeover it starts only"
          + " once the previous holder's command (or a program's fenced work) has ended, even if"
          + " that holder is stopped (SIGSTOP), waiting up to --wait, at least 5s; else it is not"
          + " run, as when the lease is held.",
      "If lease gets SIGTERM, SIGINT or SIGHUP it passes SIGTERM to COMMAND, waits up to --grace,"
          + " releases the lease and exits with 128 + the signal number.",
    },
    exitCodeList = {
      ExitCodes.RUN_OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE,
      ExitCodes.HELD_LINE,
      ExitCodes.LOST_LINE,
      ExitCodes.EXEC_LINE
    },
    footer = {
      "  lease run nightly-backup -- /usr/local/bin/backup.sh",
      "  lease run --wait 10m deploy:prod -- ./deploy.sh v1.2.3",
      "  LEASE_JDBC_URL=jdbc:mariadb://db.example/ops lease run deploy:prod -- ./deploy.sh",
      "  lease run --ttl 30s --heartbeat 5s --dir /var/lib/app/leases ingest -- \\",
      "      sh -c 'ingest --fencing-token \"$LEASE_TOKEN\"'",
      "  */5 * * * *  lease run report -- make report   (cron: runs never overlap)",
      "  */5 * * * *  lease run -q -E 0 report -- make report   (cron: a skipped run mails nothing)"
    })
final class RunCommand implements Callable<Integer> {

  /**
   * How long a new holder waits at least for the previous holder's command tree, then for its
   * fenced work, to end.
   */
  static final Duration PREVIOUS_TREE_WAIT = Duration.ofSeconds(5);

  @ParentCommand LeaseCommand parent;

  @Spec CommandSpec spec;

  @Mixin RepositoryOptions repository = new RepositoryOptions();

  @Mixin TimingOptions timing = new TimingOptions();

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      defaultValue = "0s",
      converter = DurationConverter.class,
      description =
          "Keep trying for this long while another process holds the lease, telling who holds it on"
              + " stderr (default: fail at once).")
  Duration wait = Duration.ZERO;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = DurationConverter.class,
      description =
          "After the lease is lost, how long COMMAND may take to exit after SIGTERM before it gets"
              + " SIGKILL (default: ${DEFAULT-VALUE}). On a database (--jdbc), the server ends the"
              + " key lock of a holder cut off or stopped once it has been silent for the TTL, the"
              + " grace and 1s.")
  Duration grace = Duration.ofSeconds(10);

  @Option(
      names = {"-q", "--quiet"},
      description =
          "Say nothing about a lease held by another live holder: no line while waiting, none when"
              + " COMMAND is not run (a cron job then mails nothing). Errors are still printed.")
  boolean quiet;

  @Option(
      names = {"-E", "--conflict-exit-code"},
      paramLabel = "CODE",
      defaultValue = "75",
      description =
          "Exit with CODE (0 to 255) when another live holder keeps the lease and COMMAND is not"
              + " run, as flock -E does (default: ${DEFAULT-VALUE}).")
  int conflictExitCode = ExitCodes.HELD;

  @Parameters(index = "0", paramLabel = "KEY", description = "The lease key: any non-empty string.")
  String key = "";

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "COMMAND",
      description = "The command to run and its arguments, after --.")
  List<String> command = new ArrayList<>();

  // Last, so that --help and --version close the options list, as picocli puts them.
  @Mixin HelpLayout layout = new HelpLayout();

  @Override
  public Integer call() throws InterruptedException {
    Keys.requireValid(spec, key);
    CommandDelimiter.require(spec, command);
    LeaseConfig config = timing.config();
    if (conflictExitCode < 0 || conflictExitCode > 255) {
      throw new CliFailure(
          ExitCodes.USAGE,
          "--conflict-exit-code must be from 0 to 255 (an exit status), was " + conflictExitCode);
    }
    CliContext context = parent.context();
    ParentDeathGuard guard = ParentDeathGuard.detect(context.environment());
    ChildTerminator terminator = new ChildTerminator(grace, guard::active);
    try (ShutdownHook hook = ShutdownHook.install(terminator);
        LeaseRepository leases =
            repository.open(context, StoreUse.holding(config.ttl(), config.heartbeat()));
        // The grace bounds the key lock too: a store across a network may end it once this
        // process has been silent for the TTL and the grace (a cut network, a stopped process).
        LeaseManager manager =
            context
                .managerBuilder(leases)
                .ttl(config.ttl())
                .heartbeat(config.heartbeat())
                .grace(grace)
                .build();
        Lease lease =
            new WaitingAcquirer(manager, context.ticker(), spec.commandLine().getErr(), quiet)
                .acquire(key, wait)) {
      guard.warning().ifPresent(warning -> parent.warn(spec, warning));
      CommandSupervisor supervisor =
          new CommandSupervisor(guard, terminator, hook, spec.commandLine().getErr());
      return new FencedCommand(spec.commandLine().getErr(), quiet)
          .run(
              lease,
              patience(),
              new FencedCommand.Command() {
                @Override
                public FencedCommand.Outcome run() throws InterruptedException {
                  awaitPreviousTreeGone(lease, context);
                  return supervisor.run(lease, command);
                }

                @Override
                public boolean started() {
                  return supervisor.started();
                }
              });
    } catch (WaitingAcquirer.Held held) {
      if (quiet) {
        return conflictExitCode;
      }
      throw new CliFailure(conflictExitCode, held.getMessage());
    }
  }

  /**
   * Under the key lock, waits until no process of the previous holder's command runs on this
   * machine (see {@link PreviousTree}): the previous {@code lease run} let go of the key lock once
   * its command's group had ended, or died (its reaper then kills the group, and a new holder may
   * get here first), and a process that left the group outlives both. Gives up after {@code --wait}
   * or {@link #PREVIOUS_TREE_WAIT}, whichever is longer, and then does not run the command. Stops
   * waiting once the lease is lost, which the supervisor then reports without starting anything.
   */
  private void awaitPreviousTreeGone(Lease lease, CliContext context) throws InterruptedException {
    Ticker ticker = context.ticker();
    Duration patience = patience();
    long deadline = ticker.nanoTime() + patience.toNanos();
    List<Long> left = PreviousTree.of(key, lease.generation());
    if (!left.isEmpty() && !quiet) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "lease run: waiting up to "
              + DurationConverter.format(patience)
              + " for processes of the previous holder's command to end: pids "
              + left);
      err.flush();
    }
    while (!left.isEmpty() && lease.isHeld()) { // once lost, the supervisor says so and stops
      if (ticker.nanoTime() - deadline >= 0) {
        throw new WaitingAcquirer.Held(
            "the command of the previous holder of lease '"
                + key
                + "' (a token below "
                + lease.generation()
                + ") still runs here after "
                + DurationConverter.format(patience)
                + ": pids "
                + left
                + "; they left its process group, so lease cannot stop them; stop them, then run"
                + " again");
      }
      ticker.sleep(Duration.ofMillis(50));
      left = PreviousTree.of(key, lease.generation());
    }
  }

  /**
   * How long a new holder waits for what its predecessor left: its command's processes (see {@link
   * #awaitPreviousTreeGone}), then its fenced work, which holds the key lock (see {@link
   * FencedCommand}): {@code --wait}, at least {@link #PREVIOUS_TREE_WAIT}, for each.
   */
  private Duration patience() {
    return wait.compareTo(PREVIOUS_TREE_WAIT) > 0 ? wait : PREVIOUS_TREE_WAIT;
  }
}
