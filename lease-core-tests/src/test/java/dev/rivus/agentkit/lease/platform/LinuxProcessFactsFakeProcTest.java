/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static dev.rivus.agentkit.lease.platform.FakeProcTree.BOOT_ID;
import static dev.rivus.agentkit.lease.platform.FakeProcTree.OWN_PID;
import static dev.rivus.agentkit.lease.platform.FakeProcTree.OWN_START;
import static dev.rivus.agentkit.lease.platform.FakeProcTree.PID_NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link LinuxProcessFacts} over a fake proc tree, for cases a real {@code /proc} cannot stage. */
class LinuxProcessFactsFakeProcTest {

  private static final long HOLDER_PID = 777;
  private static final long HOLDER_START = 9000;

  @TempDir Path dir;
  private FakeProcTree proc;

  @BeforeEach
  void layOutTree() throws IOException {
    proc = new FakeProcTree(Files.createDirectory(dir.resolve("proc")));
  }

  private static ProcessIdentity holder(@Nullable String start) {
    return new ProcessIdentity("some-host", BOOT_ID, PID_NAMESPACE, HOLDER_PID, start);
  }

  private static ProcessIdentity holder() {
    return holder("ticks:" + HOLDER_START);
  }

  @Test
  void readsTheCurrentIdentityFromTheTree() {
    ProcessIdentity self = proc.facts(false).currentProcess();

    assertThat(self.bootId()).isEqualTo(BOOT_ID);
    assertThat(self.pidNamespace()).isEqualTo(PID_NAMESPACE);
    assertThat(self.pid()).isEqualTo(OWN_PID);
    assertThat(self.processStart()).isEqualTo("ticks:" + OWN_START);
  }

  @Test
  void parsesTheStartTimeAfterACommandNameWithSpacesAndParentheses() {
    proc.process(OWN_PID, "a) b (c) 1 2 3 Z 4", 'S', 123456);
    proc.process(HOLDER_PID, ") ) (", 'R', HOLDER_START);
    LinuxProcessFacts facts = proc.facts(false);

    assertThat(facts.currentProcess().processStart()).isEqualTo("ticks:123456");
    assertThat(facts.liveness(holder())).isEqualTo(Liveness.ALIVE);
  }

  @Test
  void judgesAHolderWhosePidIsMissingAsGone() {
    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @Test
  void judgesAHolderWhosePidBelongsToALaterProcessAsGone() {
    proc.process(HOLDER_PID, "other", 'S', HOLDER_START + 1);

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @Test
  void judgesAZombieHolderAsGone() {
    proc.process(HOLDER_PID, "worker", 'Z', HOLDER_START);

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "hidepid=1",
        "hidepid=2",
        "hidepid=4",
        "hidepid=invisible",
        "hidepid=noaccess",
        "hidepid=ptraceable",
        "subset=pid"
      })
  void cannotTellAMissingPidFromAHiddenOneUnderHidepidWhenNotRoot(String option) {
    proc.mountInfo("rw,relatime", "rw," + option);

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void judgesAMissingPidAsGoneUnderHidepidWhenRoot() {
    proc.mountInfo("rw,relatime", "rw,hidepid=2");

    assertThat(proc.facts(true).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"hidepid=0", "hidepid=off"})
  void judgesAMissingPidAsGoneWhenHidepidIsOff(String option) {
    proc.mountInfo("rw,relatime", "rw," + option);

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @Test
  void stillJudgesAVisibleHolderUnderHidepid() {
    proc.mountInfo("rw,relatime", "rw,hidepid=2");
    proc.process(HOLDER_PID, "worker", 'S', HOLDER_START);
    LinuxProcessFacts facts = proc.facts(false);

    assertThat(facts.liveness(holder())).isEqualTo(Liveness.ALIVE);
    assertThat(facts.liveness(holder("ticks:" + (HOLDER_START - 1)))).isEqualTo(Liveness.GONE);
  }

  @Test
  void readsHidepidFromTheMountsTableWhenMountInfoIsMissing() {
    proc.delete(OWN_PID + "/mountinfo");
    proc.write("mounts", "proc " + FakeProcTree.escaped(proc.root()) + " proc rw,hidepid=2 0 0\n");

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void findsTheProcMountAtAPathWithASpace() throws IOException {
    proc = new FakeProcTree(Files.createDirectory(dir.resolve("my proc")));
    proc.mountInfo("rw,relatime", "rw,hidepid=2");

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
    assertThat(proc.facts(true).liveness(holder())).isEqualTo(Liveness.GONE);
  }

  @Test
  void cannotTellAMissingPidFromAHiddenOneWhenNoMountTableIsReadable() {
    proc.delete(OWN_PID + "/mountinfo");

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void cannotTellAMissingPidFromAHiddenOneWhenNoProcIsMountedAtTheRoot() {
    proc.write(OWN_PID + "/mountinfo", "21 1 0:20 / /proc rw - proc proc rw\n");

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @ParameterizedTest
  @ValueSource(strings = {"missing", "blank", "directory"})
  void leavesAnUnreadableBootIdUnknownAndJudgesNothing(String how) throws IOException {
    Path bootId = proc.root().resolve("sys/kernel/random/boot_id");
    Files.delete(bootId);
    if (how.equals("blank")) {
      Files.writeString(bootId, " \n");
    } else if (how.equals("directory")) {
      Files.createDirectory(bootId);
    }
    LinuxProcessFacts facts = proc.facts(false);
    ProcessIdentity noBootId =
        new ProcessIdentity("some-host", null, PID_NAMESPACE, HOLDER_PID, "ticks:" + HOLDER_START);

    assertThat(facts.currentProcess().bootId()).isNull();
    assertThat(facts.liveness(holder())).isEqualTo(Liveness.UNKNOWN);
    assertThat(facts.liveness(noBootId)).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void leavesAMalformedPidNamespaceUnknown() {
    proc.link(OWN_PID + "/ns/pid", "net:[4026531840]");
    LinuxProcessFacts facts = proc.facts(false);

    assertThat(facts.currentProcess().pidNamespace()).isNull();
    assertThat(facts.liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void recordsNoNamespaceOrStartTimeThroughTheProcOfAnotherPidNamespace() {
    // /proc/self names us by another number: this tree was mounted for another pid namespace.
    proc.process(31, "java", 'S', OWN_START).link("31/ns/pid", PID_NAMESPACE).link("self", "31");
    LinuxProcessFacts facts = proc.facts(false);

    assertThat(facts.currentProcess().pidNamespace()).isNull();
    assertThat(facts.currentProcess().processStart()).isNull();
    assertThat(facts.liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void leavesTheOwnStartTimeUnknownWhenTheStatLineIsMalformed() {
    proc.write(OWN_PID + "/stat", "4242 (java) S 1 2 3\n");

    assertThat(proc.facts(false).currentProcess().processStart()).isNull();
  }

  @Test
  void cannotJudgeAHolderWhoseStatCannotBeRead() throws IOException {
    Files.createDirectories(proc.root().resolve(HOLDER_PID + "/stat"));

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void cannotJudgeAHolderWhoseStatLineIsMalformed() {
    proc.write(HOLDER_PID + "/stat", "777 (worker S 1 2\n");

    assertThat(proc.facts(false).liveness(holder())).isEqualTo(Liveness.UNKNOWN);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "instant:2026-01-01T00:00:00Z",
        "ticks:",
        "ticks:-5",
        "9000",
        "ticks:99999999999999999999"
      })
  void cannotJudgeAHolderWhoseStartTimeIsInAnotherForm(String start) {
    assertThat(proc.facts(false).liveness(holder(start))).isEqualTo(Liveness.UNKNOWN);
  }

  @Test
  void cannotJudgeAMissingHolderWhoseStartTimeIsUnknown() {
    assertThat(proc.facts(false).liveness(holder(null))).isEqualTo(Liveness.UNKNOWN);
  }
}
