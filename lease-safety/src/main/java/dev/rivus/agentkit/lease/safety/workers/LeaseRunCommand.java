/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.safety.store.DatabasePhase;
import dev.rivus.agentkit.lease.safety.store.JdbcStore;
import dev.rivus.agentkit.lease.safety.store.StoreKind;
import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line of one {@code lease run} worker: the built CLI ({@code
 * dev.rivus.agentkit.lease.cli.LeaseCli}, on the harness's class path) in a JVM of its own, as
 * {@code lease run STORE --ttl 2s --heartbeat 500ms --grace 1s --wait W KEY -- bash -c PIPELINE},
 * with {@code STORE} the phase's: {@code --dir} or {@code --db} on its path for files and SQLite,
 * {@code --jdbc URL --jdbc-table TABLE --no-create-table} for a database, the URL through the lease
 * run slot's own TCP proxy ({@link DatabasePhase}) so that the driver can end its sessions and cut
 * its network alone.
 *
 * <p>The pipeline ({@link #PIPELINE}) prints {@code TOKEN $LEASE_TOKEN} (the driver logs it as the
 * acquisition), opens a connection to the resource with bash's {@code /dev/tcp}, says {@code ENTER}
 * with {@code $LEASE_TOKEN}, runs 1–3 READ–sleep–WRITE steps (each WRITE from a forked subshell,
 * each step writing 40 KB (two steps fill a pipe) to stderr through {@code head | tr}, and a
 * background {@code sleep}), and says {@code EXIT}.
 *
 * <p>Thread-safe: immutable.
 */
final class LeaseRunCommand {

  /** The lease's TTL; the heartbeat is a quarter of it. */
  static final Duration TTL = Duration.ofSeconds(2);

  /** The command's script; {@code SAFETY_*} come from the environment. */
  static final String PIPELINE =
      """
      echo "TOKEN $LEASE_TOKEN"
      exec 3<>"/dev/tcp/127.0.0.1/$SAFETY_PORT"
      say() { printf '%s\\n' "$1" >&3; IFS= read -r reply <&3; }
      who="$LEASE_KEY $LEASE_TOKEN $SAFETY_ID"
      say "ENTER $who"
      sleep 0.05 &
      for step in $(seq "$SAFETY_STEPS"); do
        say "READ $who"; v=${reply#OK }
        case "$v" in ''|*[!0-9]*) v=-1;; esac
        head -c 40000 /dev/zero | tr '\\0' . >&2; echo >&2
        sleep "$SAFETY_SLEEP"
        ( say "WRITE $who $((v + 1))" )
      done
      wait
      say "EXIT $who"
      """;

  private final StoreKind store;
  private final List<String> storeOptions;
  private final int resourcePort;

  private LeaseRunCommand(StoreKind store, List<String> storeOptions, int resourcePort) {
    this.store = store;
    this.storeOptions = storeOptions;
    this.resourcePort = resourcePort;
  }

  /**
   * The command of a phase's lease run slot.
   *
   * @param store the phase's repository
   * @param phaseDir the phase's directory (its store, or its {@code jdbc.properties})
   * @param slotName the slot's name ({@code r5}), which names its proxy on a database
   * @param resourcePort the protected resource's port
   */
  static LeaseRunCommand of(StoreKind store, Path phaseDir, String slotName, int resourcePort) {
    List<String> options;
    switch (store) {
      case FILE:
        options = List.of("--dir", store.storePath(phaseDir).toString());
        break;
      case SQLITE:
        options = List.of("--db", store.storePath(phaseDir).toString());
        break;
      case POSTGRES:
      case MARIADB:
      case POSTGRES_RESTART:
      case MARIADB_RESTART:
        JdbcStore.Target target = JdbcStore.target(phaseDir, slotName);
        // The driver made the table: a lease run that found none would be on the wrong one.
        options =
            List.of("--jdbc", target.url(), "--jdbc-table", target.table(), "--no-create-table");
        break;
      case BROKEN:
      default:
        throw new IllegalArgumentException("no lease run worker on " + store.label());
    }
    return new LeaseRunCommand(store, options, resourcePort);
  }

  StoreKind store() {
    return store;
  }

  /**
   * A process builder for one run.
   *
   * @param id the run's worker id ({@code r5.3}), which the pipeline says to the resource
   * @param key the lease key
   * @param wait {@code --wait}'s value
   * @param sleep the pipeline's sleep between READ and WRITE, in seconds
   * @param steps how many READ–sleep–WRITE steps
   */
  ProcessBuilder builder(String id, String key, String wait, String sleep, int steps) {
    List<String> args = new ArrayList<>();
    args.add("run");
    args.addAll(storeOptions);
    args.addAll(List.of("--ttl", "2s", "--heartbeat", "500ms", "--grace", "1s"));
    args.addAll(List.of("--wait", wait, key, "--", "bash", "-c", PIPELINE));
    // ChildJvm's command: its default options (serial GC, C1 only), the heap down to 64 MB.
    ProcessBuilder builder =
        ChildJvm.builder("dev.rivus.agentkit.lease.cli.LeaseCli")
            .jvmOptions("-Xmx64m")
            .args(args)
            .processBuilder();
    Map<String, String> env = builder.environment();
    // The store is named on the command line alone.
    env.remove("LEASE_DEBUG");
    env.remove("LEASE_DB");
    env.remove("LEASE_JDBC_URL");
    env.remove("LEASE_JDBC_USER");
    env.remove("LEASE_JDBC_PASSWORD");
    env.put("SAFETY_PORT", Integer.toString(resourcePort));
    env.put("SAFETY_ID", id);
    env.put("SAFETY_STEPS", Integer.toString(steps));
    env.put("SAFETY_SLEEP", sleep);
    return builder;
  }
}
