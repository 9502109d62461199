/** Child JVMs for tests that need another process. */
@NullMarked
package dev.rivus.agentkit.lease.childjvm;

import org.jspecify.annotations.NullMarked;
