/** The in-memory repository, for one process and for tests. */
@NullMarked
package dev.rivus.agentkit.lease.memory;

import org.jspecify.annotations.NullMarked;
