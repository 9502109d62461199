package dev.rivus.agentkit.lease.platform;

/** Chooses the process facts of the running operating system. */
final class ProcessFactsSelector {

  private ProcessFactsSelector() {}

  static ProcessFacts forThisSystem() {
    return new PortableProcessFacts();
  }
}
