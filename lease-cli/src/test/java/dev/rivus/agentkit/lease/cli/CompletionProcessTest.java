/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lease generate-completion} prints a completion script, generated from the command model,
 * that bash sources and that completes subcommands and their options.
 */
class CompletionProcessTest {

  @TempDir Path temp;

  @Test
  void theGeneratedScriptCompletesSubcommandsAndOptionsInBash() throws Exception {
    LeaseTool generate = LeaseTool.run("generate-completion");
    assertThat(generate.awaitExit()).as("%s", generate).isZero();
    Path script = temp.resolve("lease-completion.bash");
    Files.writeString(script, generate.stdout(), StandardCharsets.UTF_8);

    String completed =
        bash(
            "source '"
                + script
                + "' 2>/dev/null; "
                + "COMP_WORDS=(lease ru); COMP_CWORD=1; _complete_lease 2>/dev/null;"
                + " echo \"${COMPREPLY[*]}\";"
                + " COMP_WORDS=(lease run --conf); COMP_CWORD=2; _complete_lease 2>/dev/null;"
                + " echo \"${COMPREPLY[*]}\"; complete -p lease");

    assertThat(completed.lines())
        .containsExactly(
            "run", "--conflict-exit-code", "complete -o default -F _complete_lease lease");
  }

  private static String bash(String script) throws Exception {
    Process bash = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
    String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return output;
  }
}
