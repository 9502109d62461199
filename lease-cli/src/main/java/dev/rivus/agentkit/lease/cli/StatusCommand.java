/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code lease status KEY}: shows one lease record and its holder as judged from here. */
@Command(
    name = "status",
    header = "Show one lease: holder, liveness, generation, state, revision, TTL.",
    description = {
      "Prints the record of KEY: its state (held or released), generation (the fencing token),"
          + " revision, the holder's host and pid, whether that process is alive, dead or unknown as"
          + " judged from this machine, the TTL the holder promised (written in the record; unknown"
          + " for a record written by an older version, which others treat as the longest TTL), how"
          + " long this command saw the record unchanged, and when the writer last wrote it by its"
          + " own wall clock.",
      "With --json, the TTL is ttlMillis: milliseconds like observedUnchangedMillis, or null when"
          + " unknown.",
      "A key that was never acquired (or was pruned) is shown as absent; the exit code is still 0.",
    },
    exitCodeList = {
      ExitCodes.OK_LINE,
      ExitCodes.USAGE_LINE,
      ExitCodes.SOFTWARE_LINE,
      ExitCodes.REPOSITORY_LINE
    },
    footer = {
      "  lease status deploy:prod",
      "  lease status deploy:prod --json | jq .generation",
      "  lease status --observe 5s --dir /var/lib/app/leases ingest",
      "  lease status --jdbc jdbc:postgresql://db.example/ops --jdbc-table leases deploy:prod"
    })
final class StatusCommand implements Callable<Integer> {

  @ParentCommand LeaseCommand parent;

  @Spec CommandSpec spec;

  @Mixin RepositoryOptions repository = new RepositoryOptions();

  @Mixin OutputOptions output = new OutputOptions();

  @Parameters(index = "0", paramLabel = "KEY", description = "The lease key.")
  String key = "";

  // Last, so that --help and --version close the options list, as picocli puts them.
  @Mixin HelpLayout layout = new HelpLayout();

  @Override
  public Integer call() throws InterruptedException {
    Keys.requireValid(spec, key);
    CliContext context = parent.context();
    Optional<LeaseView> view;
    try (LeaseRepository leases = repository.open(context, StoreUse.readingExisting())) {
      view =
          new LeaseObserver(leases, context.ticker(), context.livenessJudge(), output.observe)
              .one(key);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (output.json) {
      if (view.isPresent()) {
        new JsonRenderer().renderOne(view.get(), out);
      } else {
        new JsonRenderer().renderAbsent(key, out);
      }
    } else if (view.isPresent()) {
      new TableRenderer().render(List.of(view.get()), out);
    } else {
      out.println("lease '" + key + "' is absent: never acquired, or pruned");
      out.flush();
    }
    return ExitCodes.OK;
  }
}
