package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A repository whose fences a test can make lost while they are held: through the adapter's own way
 * when it has one (a dropped connection), else by marking the wrapping fence lost, as a storage
 * that loses locks would report it. Thread-safe.
 */
final class LosableFences extends ForwardingLeaseRepository {

  /** How an adapter makes one of its own held fences be lost; false if it cannot. */
  @FunctionalInterface
  interface FenceLoser {
    boolean lose(LeaseRepository.Fence fence) throws Exception;
  }

  private final FenceLoser adapterWay;
  private final Map<String, Losable> held = new ConcurrentHashMap<>();

  LosableFences(LeaseRepository delegate, FenceLoser adapterWay) {
    super(delegate);
    this.adapterWay = adapterWay;
  }

  @Override
  public Fence lockFence(String key) throws InterruptedException {
    Losable fence = new Losable(super.lockFence(key));
    held.put(key, fence);
    return fence;
  }

  /**
   * Makes the held fence of {@code key} be lost.
   *
   * @return whether the adapter's own way was used
   */
  boolean lose(String key) throws Exception {
    Losable fence = held.get(key);
    if (fence == null) {
      throw new AssertionError("no fence of '" + key + "' was taken");
    }
    if (adapterWay.lose(fence.inner)) {
      return true;
    }
    fence.lost.set(true);
    return false;
  }

  private static final class Losable implements Fence {
    final Fence inner;
    final AtomicBoolean lost = new AtomicBoolean();

    Losable(Fence inner) {
      this.inner = inner;
    }

    @Override
    public boolean isHeld() {
      return !lost.get() && inner.isHeld();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
