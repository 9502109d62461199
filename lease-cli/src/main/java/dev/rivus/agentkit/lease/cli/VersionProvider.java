package dev.rivus.agentkit.lease.cli;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version}: the jar's implementation version, when it has one. */
final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    String version = LeaseCli.class.getPackage().getImplementationVersion();
    return new String[] {"lease " + (version == null ? "(development build)" : version)};
  }
}
