/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lease release KEY --generation N}: an operator's forced release of a stuck lease. */
@Command(
    name = "release",
    header = "Force the release of a stuck lease, at a given generation.",
    description = {
      "Marks the record of KEY released, keeping its generation so that the next holder gets a"
          + " higher one, but only if the record is still at generation N: read N from 'lease status'"
          + " first, so that a lease taken over meanwhile is never released by mistake.",
      "A holder that still runs loses the lease at its next renewal ('lease run' then stops its"
          + " command and exits 76). Releasing a generation already released does nothing and"
          + " succeeds.",
    },
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.REFUSED_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE
    },
    footer = {
      "  lease status deploy:prod          # note the generation, say 12",
      "  lease release deploy:prod --generation 12"
    })
final class ReleaseCommand implements Callable<Integer> {

  @ParentCommand LeaseCommand parent;

  @Spec CommandSpec spec;

  @Mixin RepositoryOptions repository = new RepositoryOptions();

  @Parameters(index = "0", paramLabel = "KEY", description = "The lease key.")
  String key = "";

  @Option(
      names = "--generation",
      paramLabel = "N",
      required = true,
      description = "The generation to release; refused if the record is at another one.")
  long generation;

  // Last, so that --help and --version close the options list, as picocli puts them.
  @Mixin HelpLayout layout = new HelpLayout();

  @Override
  public Integer call() {
    Keys.requireValid(spec, key);
    CliContext context = parent.context();
    Optional<LeaseSnapshot> released;
    try (LeaseRepository leases = repository.open(context, StoreUse.creating())) {
      released = new ForcedRelease(leases, context.wallClock()).release(key, generation);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (released.isPresent()) {
      out.println(
          "released lease '"
              + key
              + "' generation "
              + generation
              + " (held by "
              + released.get().holder().process()
              + ")");
    } else {
      out.println("lease '" + key + "' generation " + generation + " was already released");
    }
    out.flush();
    return ExitCodes.OK;
  }
}
