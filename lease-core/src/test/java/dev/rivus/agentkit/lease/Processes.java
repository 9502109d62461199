package dev.rivus.agentkit.lease;

import dev.rivus.agentkit.lease.platform.FakePlatform;

/** Identities of fake processes for tests: siblings share one host, boot and pid namespace. */
final class Processes {

  static final String BOOT = "boot-1";
  static final String PID_NAMESPACE = "pid:[4026531836]";

  private Processes() {}

  static ProcessIdentity sibling(long pid) {
    return new ProcessIdentity("build-7", BOOT, PID_NAMESPACE, pid, "ticks:" + (1000 + pid));
  }

  static ProcessIdentity inAnotherContainer(long pid) {
    return new ProcessIdentity("build-7", BOOT, "pid:[4026532999]", pid, "ticks:" + (1000 + pid));
  }

  static ProcessIdentity onAnotherBoot(long pid) {
    return new ProcessIdentity("build-7", "boot-2", PID_NAMESPACE, pid, "ticks:" + (1000 + pid));
  }

  /** A fake platform for the process with this pid, on the shared host. */
  static FakePlatform platformOf(long pid) {
    return new FakePlatform(sibling(pid));
  }
}
