/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Insists on {@code --} between the key and the command of {@code lease run}: without it, an option
 * meant for the command ({@code lease run k ls -l}) could be taken for one of ours, or a typo in
 * our options for the command. The command is exactly what follows the first {@code --}.
 */
final class CommandDelimiter {

  static final String DELIMITER = "--";

  static final String HINT =
      "put -- between KEY and the command: lease run [OPTIONS] KEY -- COMMAND [ARGS...]";

  private CommandDelimiter() {}

  static void require(CommandSpec spec, List<String> command) {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    int delimiter = args.indexOf(DELIMITER);
    if (delimiter < 0 || !args.subList(delimiter + 1, args.size()).equals(command)) {
      throw new ParameterException(spec.commandLine(), HINT);
    }
  }
}
