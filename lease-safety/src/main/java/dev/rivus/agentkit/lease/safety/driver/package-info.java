/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The driver: {@link SafetyMain} runs phases ({@link Phase}) one after another and prints their
 * verdicts; {@link PhaseRunner} runs one: the resource, the workers, the faults for the phase's
 * duration, the checker. {@link MutantMain} builds mutants of the real library and runs a short
 * phase of {@code SafetyMain} against each, in a driver JVM of its own.
 */
@NullMarked
package dev.rivus.agentkit.lease.safety.driver;

import org.jspecify.annotations.NullMarked;
