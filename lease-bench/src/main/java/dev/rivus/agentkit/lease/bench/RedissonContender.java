/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.bench;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's locks on a Redis server, a peer on another kind of store: one {@link RedissonClient}
 * (a single server, Redisson's defaults otherwise), at {@code LEASE_BENCH_REDIS_URL} (default
 * {@code redis://127.0.0.1:6379}), on keys under a fresh prefix ({@code lease-bench:<hex digits>:})
 * that {@link #close()} deletes before it shuts the client down. A cycle is, by {@link Kind}:
 * {@link RLock#lock()} and {@code unlock()}, or {@link RFencedLock#lockAndGetToken()} and {@code
 * unlock()}. Neither gives a lease time, so both start Redisson's watchdog (the lock's TTL is the
 * watchdog timeout, 30 s by default, renewed every third of it) and {@code unlock()} stops it: the
 * counterpart of our manager's heartbeat.
 */
final class RedissonContender implements CycleContender {

  /** The environment variable with the server's address. */
  static final String URL_VARIABLE = "LEASE_BENCH_REDIS_URL";

  private static final String DEFAULT_URL = "redis://127.0.0.1:6379";

  /** Which of Redisson's locks. */
  enum Kind {
    /** {@code getLock(key)}: {@code lock()}, {@code unlock()}; no token. */
    RLOCK,
    /** {@code getFencedLock(key)}: {@code lockAndGetToken()}, {@code unlock()}. */
    FENCED
  }

  private final Kind kind;
  private final String prefix =
      "lease-bench:"
          + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT)
          + ":";
  private final RedissonClient client;

  RedissonContender(Kind kind) {
    this.kind = kind;
    Config config = new Config();
    config.useSingleServer().setAddress(url());
    client = Redisson.create(config);
  }

  /** The server's address, from {@value #URL_VARIABLE} or the default. */
  static String url() {
    String url = System.getenv(URL_VARIABLE);
    return url == null || url.isBlank() ? DEFAULT_URL : url;
  }

  @Override
  public Cycle forThread(int index) {
    String key = prefix + "bench/" + index;
    switch (kind) {
      case RLOCK:
        RLock lock = client.getLock(key);
        return () -> {
          lock.lock();
          try {
            return 1;
          } finally {
            lock.unlock();
          }
        };
      case FENCED:
        RFencedLock fenced = client.getFencedLock(key);
        return () -> {
          long token = fenced.lockAndGetToken();
          try {
            return token;
          } finally {
            fenced.unlock();
          }
        };
    }
    throw new AssertionError(kind);
  }

  @Override
  public void close() {
    try {
      // Left behind, with the key in braces in their names: the fenced lock's token counter
      // (redisson_lock_token:{key}), and a latch of every unlock (redisson_unlock_latch:{key}:...)
      // that expires some seconds later.
      client.getKeys().deleteByPattern("*" + prefix + "*");
    } finally {
      client.shutdown();
    }
  }
}
