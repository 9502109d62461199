/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import picocli.CommandLine.Command;

/**
 * The help options, version and help-page headings that {@code lease} and its subcommands share, as
 * a mixin: its {@code @Command} attributes become each command's. A mixin rather than the top
 * command's inherited scope, which would also give picocli's own {@code help} and {@code
 * generate-completion} the top command's description and examples.
 */
@Command(
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    headerHeading = "%n",
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    exitCodeListHeading = ExitCodes.HEADING,
    footerHeading = "%nExamples:%n")
final class HelpLayout {}
