/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.PrunableLeaseRepository;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code lease prune --older-than DURATION}: removes old tombstones, keeping generations rising.
 */
@Command(
    name = "prune",
    header = "Remove old released records (tombstones).",
    description = {
      "Removes released records last written more than DURATION ago (by the repository's wall"
          + " clock). Held records are never removed, and a key that comes back still gets a higher"
          + " generation than it ever had. Supported by the SQLite repository (--db) and databases"
          + " (--jdbc, where a pruned record stays as a floor row); --dir cannot prune, a usage"
          + " error.",
    },
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE
    },
    footer = {
      "  lease prune --older-than 30d",
      "  lease prune --older-than 0s   # every tombstone"
    })
final class PruneCommand implements Callable<Integer> {

  @ParentCommand LeaseCommand parent;

  @Spec CommandSpec spec;

  @Mixin RepositoryOptions repository = new RepositoryOptions();

  @Option(
      names = "--older-than",
      paramLabel = "DURATION",
      required = true,
      converter = DurationConverter.class,
      description = "The minimum age of a tombstone to remove, for example 30d, 12h or PT1H.")
  Duration olderThan = Duration.ZERO;

  // Last, so that --help and --version close the options list, as picocli puts them.
  @Mixin HelpLayout layout = new HelpLayout();

  @Override
  public Integer call() {
    CliContext context = parent.context();
    int removed;
    try (LeaseRepository leases = repository.open(context, StoreUse.creating())) {
      if (!(leases instanceof PrunableLeaseRepository)) {
        throw new CliFailure(
            ExitCodes.USAGE,
            "this repository (" + leases + ") cannot prune; use --db (SQLite) or --jdbc");
      }
      removed = ((PrunableLeaseRepository) leases).prune(olderThan);
    }
    spec.commandLine()
        .getOut()
        .println(
            "pruned "
                + removed
                + (removed == 1 ? " tombstone" : " tombstones")
                + " older than "
                + DurationConverter.format(olderThan));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
