/**
 * JMH benchmarks of the lease manager and its repositories; see {@code BENCHMARKS.md} for the
 * commands and the figures.
 */
@NullMarked
package dev.rivus.agentkit.lease.bench;

import org.jspecify.annotations.NullMarked;
