package dev.rivus.agentkit.lease.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * When {@code lease run} itself is asked to stop (SIGTERM, SIGINT, SIGHUP), stops its command first
 * and then gives the main thread time to release the lease before the JVM halts.
 *
 * <p>Install it before acquiring; {@link #watch(Process)} the command once started; {@link
 * #close()} after the lease is released, which also removes the hook when the JVM is not shutting
 * down.
 */
final class ShutdownHook implements AutoCloseable {

  /** Time left to the main thread for releasing the lease once the command is gone. */
  private static final Duration RELEASE_TIME = Duration.ofSeconds(10);

  private final ChildTerminator terminator;
  private final CountDownLatch released = new CountDownLatch(1);
  private final Thread thread = new Thread(this::onShutdown, "lease-shutdown");
  private volatile @Nullable Process child;

  private ShutdownHook(ChildTerminator terminator) {
    this.terminator = terminator;
  }

  static ShutdownHook install(ChildTerminator terminator) {
    ShutdownHook hook = new ShutdownHook(terminator);
    Runtime.getRuntime().addShutdownHook(hook.thread);
    return hook;
  }

  void watch(Process started) {
    child = started;
  }

  private void onShutdown() {
    Process watched = child;
    if (watched == null) {
      return; // nothing to stop; a lease still held expires (at once where /proc shows us gone)
    }
    try {
      terminator.terminate(watched);
      released.await(RELEASE_TIME.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    released.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to: it finds the lease released and returns
    }
  }
}
