/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.LeaseException;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseLost;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.RevisionConflict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure of a command into one line on stderr and an exit code: bad command lines into
 * the usage code, the library's typed failures into their codes, anything else into the internal
 * error code. Stack traces are printed only when {@code LEASE_DEBUG} is set. What it prints, stack
 * traces too, passes through the run's {@link Redaction}: a database password quoted by a driver
 * never reaches the terminal.
 */
final class CliErrors implements IParameterExceptionHandler, IExecutionExceptionHandler {

  private final Map<String, String> environment;
  private final Redaction redaction;

  CliErrors(Map<String, String> environment, Redaction redaction) {
    this.environment = environment;
    this.redaction = redaction;
  }

  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine command = ex.getCommandLine();
    String name = command.getCommandSpec().qualifiedName();
    String unknown = unknownCommand(ex);
    if (unknown != null) {
      int code =
          report(
              command.getErr(),
              name,
              ExitCodes.USAGE,
              "unknown command '" + unknown + "' (see '" + name + " --help')",
              ex);
      // picocli's "Did you mean: lease run?", if it has one, after our line.
      UnmatchedArgumentException.printSuggestions(ex, command.getErr());
      return code;
    }
    String message = oneLine(ex.getMessage());
    if (command.getCommand() instanceof RunCommand
        && !List.of(args).contains(CommandDelimiter.DELIMITER)
        && !message.contains(CommandDelimiter.HINT)) {
      // "lease run k ls -l" fails on "-l": the missing "--" is the real mistake.
      message = message + "; " + CommandDelimiter.HINT;
    }
    return report(
        command.getErr(), name, ExitCodes.USAGE, message + " (see '" + name + " --help')", ex);
  }

  /**
   * The word given where a command was expected ({@code lease rnu}), or null: picocli would say
   * "Unmatched argument at index 0: 'rnu'", which does not tell that a command was meant.
   */
  private static @Nullable String unknownCommand(ParameterException ex) {
    if (!(ex instanceof UnmatchedArgumentException)
        || ex.getCommandLine().getSubcommands().isEmpty()) {
      return null;
    }
    List<String> unmatched = ((UnmatchedArgumentException) ex).getUnmatched();
    if (unmatched.isEmpty() || unmatched.get(0).startsWith("-")) {
      return null; // an unknown option, which picocli's message names well
    }
    return unmatched.get(0);
  }

  @Override
  public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
    String name = command.getCommandSpec().qualifiedName();
    if (ex instanceof CliFailure) {
      CliFailure failure = (CliFailure) ex;
      return report(command.getErr(), name, failure.exitCode(), oneLine(failure.getMessage()), ex);
    }
    if (ex instanceof LeaseException) {
      return report(
          command.getErr(), name, exitCode((LeaseException) ex), describe((LeaseException) ex), ex);
    }
    if (ex instanceof InterruptedException) {
      return report(command.getErr(), name, 128 + 2, "interrupted", ex);
    }
    return report(
        command.getErr(),
        name,
        ExitCodes.SOFTWARE,
        "internal error: " + oneLine(String.valueOf(ex)) + " (set LEASE_DEBUG=1 for details)",
        ex);
  }

  private int report(PrintWriter err, String name, int code, String message, Exception ex) {
    err.println(redaction.scrub(name + ": " + message));
    if (environment.containsKey("LEASE_DEBUG")) {
      StringWriter trace = new StringWriter();
      ex.printStackTrace(new PrintWriter(trace));
      err.print(redaction.scrub(trace.toString()));
    }
    err.flush();
    return code;
  }

  private static int exitCode(LeaseException ex) {
    if (ex instanceof LeaseHeld) {
      return ExitCodes.HELD;
    }
    if (ex instanceof LeaseLost) {
      return ExitCodes.LOST;
    }
    if (ex instanceof LeaseConfigInvalid) {
      return ExitCodes.USAGE;
    }
    return ExitCodes.REPOSITORY; // LeaseRepositoryFailure, RevisionConflict
  }

  private static String describe(LeaseException ex) {
    // A repository's message names what failed and where; its cause adds only a stack trace.
    String message = oneLine(ex.getMessage());
    boolean repository = ex instanceof LeaseRepositoryFailure || ex instanceof RevisionConflict;
    return repository ? "repository failure: " + message : message;
  }

  static String oneLine(@Nullable String message) {
    if (message == null || message.isBlank()) {
      return "failed";
    }
    return message.strip().replaceAll("\\s*\\R\\s*", "; ");
  }
}
