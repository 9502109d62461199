/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lease list}: shows every lease record of the repository, sorted by key. */
@Command(
    name = "list",
    header = "List every lease, held and released, sorted by key.",
    description = {
      "One line per record, with the columns of 'lease status'. --json prints a JSON array of the"
          + " objects 'lease status --json' prints.",
    },
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE
    },
    footer = {
      "  lease list",
      "  lease list --json | jq -r '.[] | select(.state == \"held\") | .key'",
      "  lease list --dir /var/lib/app/leases"
    })
final class ListCommand implements Callable<Integer> {

  @ParentCommand LeaseCommand parent;

  @Spec CommandSpec spec;

  @Mixin RepositoryOptions repository = new RepositoryOptions();

  @Mixin OutputOptions output = new OutputOptions();

  // Last, so that --help and --version close the options list, as picocli puts them.
  @Mixin HelpLayout layout = new HelpLayout();

  @Override
  public Integer call() throws InterruptedException {
    CliContext context = parent.context();
    List<LeaseView> views;
    try (LeaseRepository leases = repository.open(context, StoreUse.readingExisting())) {
      views =
          new LeaseObserver(leases, context.ticker(), context.livenessJudge(), output.observe)
              .all();
    }
    if (output.json) {
      new JsonRenderer().renderAll(views, spec.commandLine().getOut());
    } else {
      new TableRenderer().render(views, spec.commandLine().getOut());
    }
    return ExitCodes.OK;
  }
}
