package dev.rivus.agentkit.lease.platform;

import dev.rivus.agentkit.lease.Liveness;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/** The real platform: system clocks, daemon threads, and process facts of this operating system. */
final class SystemPlatform implements Platform {

  private final ProcessFacts facts = ProcessFactsSelector.forThisSystem();

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (!duration.isNegative() && !duration.isZero()) {
      TimeUnit.NANOSECONDS.sleep(duration.toNanos());
    }
  }

  @Override
  public LeaseScheduler newScheduler(String name) {
    return new SystemScheduler(name);
  }

  @Override
  public ProcessIdentity currentProcess() {
    return facts.currentProcess();
  }

  @Override
  public Liveness liveness(ProcessIdentity holder) {
    return facts.liveness(holder);
  }
}
