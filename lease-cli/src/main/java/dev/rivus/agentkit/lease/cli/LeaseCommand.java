/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/** {@code lease}: the top command, which only names its subcommands. */
@Command(
    name = "lease",
    header = "Run commands under a lease; inspect and manage leases.",
    synopsisSubcommandLabel = "COMMAND",
    description = {
      "A lease lets one process at a time own a task, named by a key. Every acquisition raises the"
          + " key's generation, a fencing token that never goes back; a key's first is the wall clock"
          + " in microseconds. A holder that dies on this machine is taken over at once; one that"
          + " hangs, after the TTL (the longer of the holder's and the taker's).",
      "",
      "Leases live in a SQLite database by default ($LEASE_DB, else"
          + " $${XDG_STATE_HOME:-~/.local/state}/lease/leases.db), in a directory with --dir, or in"
          + " a table of a shared PostgreSQL or MariaDB database with --jdbc URL (or"
          + " $LEASE_JDBC_URL), for processes on many machines."
    },
    commandListHeading = "%nCommands:%n",
    subcommands = {
      RunCommand.class,
      StatusCommand.class,
      ListCommand.class,
      ReleaseCommand.class,
      PruneCommand.class,
      HelpCommand.class,
      AutoComplete.GenerateCompletion.class // hidden: prints the bash and zsh completion script
    },
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.REFUSED_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE,
      ExitCodes.HELD_LINE,
      ExitCodes.LOST_LINE,
      ExitCodes.EXEC_LINE
    },
    footer = {
      "  lease run nightly-backup -- /usr/local/bin/backup.sh",
      "  lease run --wait 10m deploy:prod -- ./deploy.sh v1.2.3",
      "  lease run --jdbc jdbc:postgresql://db.example/ops deploy:prod -- ./deploy.sh v1.2.3",
      "  lease status deploy:prod --json",
      "  lease list",
      "  lease release deploy:prod --generation 12",
      "  lease prune --older-than 30d",
      "  source <(lease generate-completion)   (bash or zsh: complete commands and options)",
      "",
      "See 'lease COMMAND --help' for each command."
    })
final class LeaseCommand implements Callable<Integer> {

  @Mixin HelpLayout layout = new HelpLayout();

  private final CliContext context;

  /** For tools that make the command from its class, such as the man page generator. */
  LeaseCommand() {
    this(CliContext.system());
  }

  LeaseCommand(CliContext context) {
    this.context = context;
  }

  CliContext context() {
    return context;
  }

  /** Prints a one-line warning to stderr, prefixed with the command's name. */
  void warn(CommandSpec command, String warning) {
    command.commandLine().getErr().println(command.qualifiedName() + ": " + warning);
    command.commandLine().getErr().flush();
  }

  @Override
  public Integer call() {
    throw new CliFailure(
        ExitCodes.USAGE,
        "missing COMMAND: one of run, status, list, release, prune (see 'lease --help')");
  }
}
