/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.SaveOutcome;
import dev.rivus.agentkit.lease.safety.JsonLines;
import dev.rivus.agentkit.lease.testkit.ForwardingLeaseRepository;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Logs every renewal write of a worker's repository: when it started (a moment no observer can have
 * seen the new revision before) and whether it was saved. The checker's early-takeover property
 * (P6) counts a holder's TTL from the start of its last saved renewal.
 *
 * <p>Thread-safe if the repository is.
 */
final class RenewalLog extends ForwardingLeaseRepository {

  private final JsonLines log;
  private final String worker;

  RenewalLog(LeaseRepository delegate, JsonLines log, String worker) {
    super(delegate);
    this.log = log;
    this.worker = worker;
  }

  @Override
  public void save(LeaseWrite write) {
    if (write.intent() != LeaseWrite.Intent.RENEW) {
      super.save(write);
      return;
    }
    renewal("renew_start", write, null);
    try {
      super.save(write);
    } catch (RuntimeException failure) {
      renewal("renew_failed", write, failure);
      throw failure;
    }
    renewal("renew_ok", write, null);
  }

  @Override
  public List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    for (LeaseWrite write : writes) {
      if (write.intent() == LeaseWrite.Intent.RENEW) {
        renewal("renew_start", write, null);
      }
    }
    List<SaveOutcome> outcomes;
    try {
      outcomes = super.saveAll(writes);
    } catch (RuntimeException failure) {
      writes.forEach(write -> renewal("renew_failed", write, failure));
      throw failure;
    }
    for (SaveOutcome outcome : outcomes) {
      if (outcome.write().intent() == LeaseWrite.Intent.RENEW) {
        renewal(
            outcome.isSaved() ? "renew_ok" : "renew_failed", outcome.write(), outcome.failure());
      }
    }
    return outcomes;
  }

  private void renewal(String event, LeaseWrite write, @Nullable Exception failure) {
    Map<String, Object> line = JsonLines.fields("t", System.nanoTime());
    line.put("w", worker);
    line.put("ev", event);
    line.put("key", write.key());
    line.put("token", write.snapshot().generation());
    if (failure != null) {
      line.put("error", failure.getClass().getSimpleName());
    }
    log.write(line);
  }
}
