/**
 * Leases for Java: one owner per task, with a fencing token that never goes backwards.
 *
 * <p>Exports the API ({@code dev.rivus.agentkit.lease}), the platform (clocks, scheduler, process
 * facts), the memory and file repositories, and building blocks for adapter authors. The manager's
 * implementation stays internal.
 */
module dev.rivus.agentkit.lease {
  requires static transitive org.jspecify;
  requires com.fasterxml.jackson.databind;

  exports dev.rivus.agentkit.lease;
  exports dev.rivus.agentkit.lease.platform;
  exports dev.rivus.agentkit.lease.memory;
  exports dev.rivus.agentkit.lease.file;
  exports dev.rivus.agentkit.lease.support;
}
