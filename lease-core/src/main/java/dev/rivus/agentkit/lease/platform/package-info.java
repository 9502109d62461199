/**
 * What a lease manager needs from its surroundings: clocks, a scheduler and facts about processes,
 * with the system implementation ({@link dev.rivus.agentkit.lease.platform.Platform#system()}) and
 * a test double ({@link dev.rivus.agentkit.lease.platform.FakePlatform}).
 */
@NullMarked
package dev.rivus.agentkit.lease.platform;

import org.jspecify.annotations.NullMarked;
