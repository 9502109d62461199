/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole process tree of {@code lease run}'s command stops with the lease, for the command
 * shapes that leave processes behind their own: a pipeline, a background job waited for, and a
 * script that starts a child. Each process of the tree runs a {@code sleep} with a marker of its
 * own test, found again by the marker in its command line.
 */
@Tag("cross-process")
class CommandTreeProcessTest {

  /** Each shape starts its sleeps with MARK, a number unique to the test. */
  private static final Map<String, String> SHAPES =
      Map.of(
          "pipeline", "sleep MARK1 | cat",
          "background", "sleep MARK1 & wait",
          "script", "sh -c 'sleep MARK1' & sleep MARK2");

  @TempDir Path temp;
  private String mark;

  @BeforeEach
  void linuxWithTheReaper() {
    assumeThat(ParentDeathGuard.detect(System.getenv()).active())
        .as("setpriv --pdeathsig and setsid (util-linux)")
        .isTrue();
    mark = "7" + (100000 + ThreadLocalRandom.current().nextInt(800000));
  }

  private String[] run(String key, String... commandAndOptions) {
    List<String> args =
        new ArrayList<>(List.of("run", "--db", temp.resolve("leases.db").toString()));
    args.addAll(List.of(commandAndOptions));
    args.add(args.indexOf("--"), key);
    return args.toArray(String[]::new);
  }

  private String shape(String name) {
    return SHAPES.get(name).replace("MARK", mark);
  }

  /** The processes of this test's tree still running. */
  private List<ProcessHandle> tree() {
    return ProcessHandle.allProcesses()
        .filter(
            p -> p.info().commandLine().map(line -> line.contains("sleep " + mark)).orElse(false))
        .filter(p -> p.info().command().map(c -> c.endsWith("sleep")).orElse(false))
        .toList();
  }

  /** A command that says whether any process of this test's tree runs as it starts. */
  private String[] checkTree() {
    // "slee[p]" so that pgrep does not find this very command line.
    return new String[] {
      "sh",
      "-c",
      "if pgrep -f 'slee[p] "
          + mark
          + "' >/dev/null; then echo tree=running; else echo tree=gone; fi"
    };
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"pipeline", "background", "script"})
  void killingLeaseWithSigkillStopsTheWholeTreeBeforeTheNextHolderStarts(String shape)
      throws Exception {
    try (LeaseTool holder = LeaseTool.start(run("tree", "--", "sh", "-c", shape(shape)))) {
      int sleeps = shape.equals("script") ? 2 : 1;
      await("the tree to start").atMost(LeaseTool.PATIENCE).until(() -> tree().size() == sleeps);

      holder.signal("KILL");
      List<String> next = new ArrayList<>(List.of(run("tree", "--wait", "30s", "--")));
      next.addAll(List.of(checkTree()));
      LeaseTool successor = LeaseTool.run(next.toArray(String[]::new));

      assertThat(successor.awaitExit()).as("%s", successor).isZero();
      assertThat(successor.stdout()).as("%s", successor).isEqualTo("tree=gone");
      assertThat(tree()).isEmpty();
    }
  }

  /**
   * A stopped holder's tree runs on until the holder resumes, but its successor's command does not
   * start beside it: the stopped {@code lease} holds the key lock, so the successor, which took the
   * lease over after the TTL, waits for it; on resume the holder stops its whole tree and lets go.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"pipeline", "background", "script"})
  void aLossStopsTheWholeTreeEvenWhatIgnoresSigtermBeforeTheSuccessorsCommandStarts(String shape)
      throws Exception {
    // Every process of the tree ignores SIGTERM: only the SIGKILL after the grace stops it.
    String command = "trap '' TERM; " + shape(shape);
    try (LeaseTool stopped =
        LeaseTool.start(
            run(
                "tree",
                "--ttl",
                "2s",
                "--heartbeat",
                "500ms",
                "--grace",
                "1s",
                "--",
                "sh",
                "-c",
                command))) {
      int sleeps = shape.equals("script") ? 2 : 1;
      await("the tree to start").atMost(LeaseTool.PATIENCE).until(() -> tree().size() == sleeps);
      stopped.signal("STOP");
      List<String> next =
          new ArrayList<>(
              List.of(run("tree", "--ttl", "2s", "--heartbeat", "500ms", "--wait", "60s", "--")));
      next.addAll(List.of(checkTree()));
      try (LeaseTool successor = LeaseTool.start(next.toArray(String[]::new))) {
        successor.closeStdin();
        successor.awaitStderr("(waiting up to 1m for the key lock)");
        assertThat(tree()).as("the stopped holder's tree").hasSize(sleeps);
        assertThat(successor.stdout()).as("the successor's command has not started").isEmpty();

        stopped.signal("CONT");

        assertThat(stopped.awaitExit()).as("%s", stopped).isEqualTo(ExitCodes.LOST);
        assertThat(successor.awaitExit()).as("%s", successor).isZero();
        assertThat(successor.stdout()).as("%s", successor).isEqualTo("tree=gone");
        assertThat(tree()).isEmpty();
      }
    }
  }

  /**
   * A successor that waits for the key lock of a stopped holder gets it at once when an operator
   * kills that holder; what left the holder's group must still keep the successor's command from
   * starting (found in review: the processes were looked for before the key lock, while the holder
   * was alive, and so not counted).
   */
  @Test
  void aStoppedHolderKilledWhileItsSuccessorWaitsLeavesNothingBesideTheSuccessorsCommand()
      throws Exception {
    String command = "setsid sleep " + mark + "1 & sleep " + mark + "2";
    try (LeaseTool stopped =
        LeaseTool.start(
            run("tree", "--ttl", "2s", "--heartbeat", "500ms", "--", "sh", "-c", command))) {
      await("the tree to start").atMost(LeaseTool.PATIENCE).until(() -> tree().size() == 2);
      stopped.signal("STOP");
      List<String> next =
          new ArrayList<>(
              List.of(run("tree", "--ttl", "2s", "--heartbeat", "500ms", "--wait", "60s", "--")));
      next.addAll(List.of(checkTree()));
      try (LeaseTool successor = LeaseTool.start(next.toArray(String[]::new))) {
        successor.closeStdin();
        successor.awaitStderr("(waiting up to 1m for the key lock)");

        stopped.signal("KILL");
        successor.awaitStderr("(for processes of the previous holder's command to end)");
        assertThat(successor.stdout()).as("the successor's command has not started").isEmpty();
        tree().forEach(ProcessHandle::destroyForcibly);

        assertThat(successor.awaitExit()).as("%s", successor).isZero();
        assertThat(successor.stdout()).as("%s", successor).isEqualTo("tree=gone");
      }
    } finally {
      tree().forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void whatTheCommandLeftRunningStopsWhenItExits() throws Exception {
    String command = "sleep " + mark + "9 & echo started";
    LeaseTool lease = LeaseTool.run(run("tree", "--grace", "1s", "--", "sh", "-c", command));

    assertThat(lease.awaitExit()).as("%s", lease).isZero();
    assertThat(lease.stdout()).isEqualTo("started");
    assertThat(tree()).as("the background sleep, stopped before lease exits").isEmpty();
  }

  /**
   * A process that left the command's group (setsid) outlives the reaper, but still carries the
   * previous token in its environment: the next holder refuses to start beside it, and starts once
   * it is gone.
   */
  @Test
  void theNextHolderDoesNotStartBesideAProcessThatLeftTheGroup() throws Exception {
    try (LeaseTool holder =
        LeaseTool.start(
            run("tree", "--", "sh", "-c", "setsid sleep " + mark + "1 & sleep " + mark + "2"))) {
      await("the tree to start").atMost(LeaseTool.PATIENCE).until(() -> tree().size() == 2);
      holder.signal("KILL");
      await("the group to be stopped").atMost(LeaseTool.PATIENCE).until(() -> tree().size() == 1);
      long escaped = tree().get(0).pid();

      List<String> next = new ArrayList<>(List.of(run("tree", "--wait", "1s", "--")));
      next.addAll(List.of(checkTree()));
      LeaseTool refused = LeaseTool.run(next.toArray(String[]::new));

      assertThat(refused.awaitExit()).as("%s", refused).isEqualTo(ExitCodes.HELD);
      assertThat(refused.stdout()).as("the command did not run").isEmpty();
      assertThat(refused.stderr().lines())
          .hasSize(2)
          .first()
          .isEqualTo(
              "lease run: waiting up to 5s for processes of the previous holder's command to end:"
                  + " pids ["
                  + escaped
                  + "]");
      assertThat(refused.stderr().lines().skip(1).findFirst().orElseThrow())
          .startsWith("lease run: the command of the previous holder of lease 'tree'")
          .contains("pids [" + escaped + "]");

      ProcessHandle.of(escaped).ifPresent(ProcessHandle::destroyForcibly);
      LeaseTool.awaitGone(escaped, Duration.ofSeconds(10));
      // The refused run held and released the lease: its successor's previous holder is the
      // refused one, whose command never started.
      LeaseTool after = LeaseTool.run(next.toArray(String[]::new));
      assertThat(after.awaitExit()).as("%s", after).isZero();
      assertThat(after.stdout()).isEqualTo("tree=gone");
    } finally {
      tree().forEach(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * A {@code lease run} started by a process of its predecessor's command (a job that relaunches
   * itself from a process that left the group, or any wrapper that passes the variables down) does
   * not wait for its own ancestor: before the fix it waited 5 s for the shell that started it,
   * which waited for it, and exited 75 (found in review).
   */
  @Test
  void aLeaseRunStartedByItsPredecessorsCommandDoesNotWaitForItsOwnAncestor() throws Exception {
    LeaseTool first = LeaseTool.run(run("tree", "--", "sh", "-c", "echo \"$LEASE_TOKEN\""));
    assertThat(first.awaitExit()).as("%s", first).isZero();
    String previousToken = first.stdout();

    List<String> lease = new ArrayList<>();
    lease.add(ChildJvm.javaBinary());
    lease.addAll(
        List.of(
            "-Xmx64m",
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            LeaseCli.class.getName(),
            "run",
            "--db",
            temp.resolve("leases.db").toString(),
            "--wait",
            "1s",
            "tree",
            "--",
            "sh",
            "-c",
            "echo ran"));
    // The shell stays the parent (a command follows), carrying the previous holder's variables.
    ProcessBuilder wrapper =
        new ProcessBuilder("sh", "-c", "\"$@\"; status=$?; exit $status", "wrapper")
            .redirectError(temp.resolve("wrapper.err").toFile());
    wrapper.command().addAll(lease);
    wrapper.environment().put(CommandSupervisor.LEASE_KEY, "tree");
    wrapper.environment().put(CommandSupervisor.LEASE_TOKEN, previousToken);
    wrapper.environment().remove("LEASE_JDBC_URL");
    Process started = wrapper.start();
    String output = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(started.waitFor(60, TimeUnit.SECONDS)).as("exited").isTrue();
    String errors = Files.readString(temp.resolve("wrapper.err"));
    assertThat(started.exitValue()).as(errors).isZero();
    assertThat(output.strip()).as(errors).isEqualTo("ran");
  }
}
