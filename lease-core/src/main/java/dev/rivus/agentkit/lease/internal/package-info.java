/** The lease manager's implementation: not exported, not API. */
@NullMarked
package dev.rivus.agentkit.lease.internal;

import org.jspecify.annotations.NullMarked;
