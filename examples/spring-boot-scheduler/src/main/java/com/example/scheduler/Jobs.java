/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package com.example.scheduler;

import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.spring.CurrentLease;
import dev.rivus.agentkit.lease.spring.Leased;
import java.time.Duration;
import java.time.Instant;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** The application's jobs: each runs under its lease, on whichever instance gets it. */
@Component
public class Jobs {

  private final JdbcTemplate jdbc;
  private final String instance;
  private final Duration ledgerWork;

  public Jobs(
      JdbcTemplate jdbc,
      @Value("${example.instance:${random.uuid}}") String instance,
      @Value("${example.ledger.work:1s}") Duration ledgerWork) {
    this.jdbc = jdbc;
    this.instance = instance;
    this.ledgerWork = ledgerWork;
  }

  /**
   * Every two seconds, on one instance: every instance's scheduler fires, one runs, the others
   * skip. The lease is kept for 1.5 s, so an instance whose clock or scheduler is up to that far
   * behind finds it still held and does not run the slot again.
   */
  @Scheduled(cron = "*/2 * * * * *")
  @Leased(key = "report", holdAtLeast = "1500ms")
  public void report() {
    long slot = Instant.now().getEpochSecond() / 2 * 2;
    FencingToken token = CurrentLease.token();
    jdbc.update(
        "INSERT INTO report_runs (slot, instance, token) VALUES (?, ?, ?)",
        slot,
        instance,
        token.generation());
  }

  /**
   * A write to the fenced table, in a transaction that commits only while this instance still holds
   * the lease: {@code fencedTransaction} checks the lease's token in the transaction, and a holder
   * paused past its TTL finds its write refused and nothing of it committed.
   */
  @Scheduled(fixedDelay = 100)
  @Transactional
  @Leased(key = "ledger", fencedTransaction = true)
  public void ledger() throws InterruptedException {
    FencingToken token = CurrentLease.token();
    jdbc.update("INSERT INTO ledger (token, instance) VALUES (?, ?)", token.generation(), instance);
    Thread.sleep(ledgerWork.toMillis()); // the rest of the work, in the same transaction
  }
}
