/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * The entry point of the {@code lease} command. See {@code lease --help} and {@code docs/cli.md}.
 *
 * <p>Run it with the {@code ./lease} launcher at the root of the repository, or as {@code java -cp
 * CLASSPATH dev.rivus.agentkit.lease.cli.LeaseCli ARGS...}.
 */
public final class LeaseCli {

  private LeaseCli() {}

  /**
   * Runs {@code lease} with the given arguments and exits the JVM with its exit code.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    OneLineLogFormat.configureOnFirstUse();
    InstalledSqliteLibrary.prefer();
    StartupWork startup = StartupWork.start(args, System.getenv());
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code = execute(CliContext.system(startup::processes), out, err, args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** Runs {@code lease} in this JVM, for tests: returns the exit code instead of exiting. */
  static int execute(CliContext context, PrintWriter out, PrintWriter err, String... args) {
    CliErrors errors =
        new CliErrors(context.environment(), Redaction.of(context.environment(), args));
    CommandLine cli =
        new CommandLine(new LeaseCommand(context))
            .setOut(out)
            .setErr(err)
            .setExpandAtFiles(false)
            .setParameterExceptionHandler(errors)
            .setExecutionExceptionHandler(errors);
    return cli.execute(args);
  }
}
