/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseManager;
import dev.rivus.agentkit.lease.LeaseManagerBuilder;
import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LivenessJudge;
import dev.rivus.agentkit.lease.ProcessIdentity;
import dev.rivus.agentkit.lease.platform.SchedulerFactory;
import dev.rivus.agentkit.lease.platform.SystemProcesses;
import dev.rivus.agentkit.lease.platform.Ticker;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What every {@code lease} command takes from its surroundings: the environment, the repositories
 * it can open, and the platform parts its lease manager and views use. The real one reads the
 * process; tests give fakes.
 *
 * @param environment the process environment
 * @param repositories how to open the repositories named on the command line
 * @param ticker the monotonic clock waits are measured on
 * @param wallClock the wall clock written to records
 * @param scheduler makes the lease manager's threads
 * @param currentProcess this process, asked for only when a manager is built
 * @param livenessJudge judges the holders of leases
 */
record CliContext(
    Map<String, String> environment,
    Repositories repositories,
    Ticker ticker,
    Clock wallClock,
    SchedulerFactory scheduler,
    Supplier<ProcessIdentity> currentProcess,
    LivenessJudge livenessJudge) {

  /** The real surroundings, for tools that make the command from its class. */
  static CliContext system() {
    return system(SystemProcesses::detect);
  }

  /** The real surroundings; the process facts come from {@code processes}, asked when needed. */
  static CliContext system(Supplier<SystemProcesses> processes) {
    return new CliContext(
        System.getenv(),
        new StandardRepositories(),
        Ticker.system(),
        Clock.systemUTC(),
        SchedulerFactory.system(),
        () -> processes.get().currentProcess(),
        holder -> processes.get().judge(holder));
  }

  /** A lease manager builder on {@code repository} with these surroundings' parts. */
  LeaseManagerBuilder managerBuilder(LeaseRepository repository) {
    return LeaseManager.builder(repository)
        .ticker(ticker)
        .wallClock(wallClock)
        .scheduler(scheduler)
        .currentProcess(currentProcess.get())
        .livenessJudge(livenessJudge);
  }
}
