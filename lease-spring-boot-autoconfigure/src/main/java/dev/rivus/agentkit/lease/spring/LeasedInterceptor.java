/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import dev.rivus.agentkit.lease.FencedWork;
import dev.rivus.agentkit.lease.FencingToken;
import dev.rivus.agentkit.lease.Lease;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseHeld;
import dev.rivus.agentkit.lease.LeaseManager;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringValueResolver;

/**
 * Runs {@link Leased} methods under their lease: acquire or skip, run as fenced work with the token
 * bound, release (or hand the release to {@link HoldAtLeast}). Thread-safe: one interceptor serves
 * every call of every {@code @Leased} method.
 */
public final class LeasedInterceptor implements MethodInterceptor {

  private static final System.Logger LOG = System.getLogger(LeasedInterceptor.class.getName());

  private final Supplier<LeaseManagers> managers;
  private final LeaseKeyResolver keys;
  private final Supplier<HoldAtLeast> holds;
  private final Supplier<Optional<LeaseFence>> fence;
  private final Map<Method, Settings> settings = new ConcurrentHashMap<>();

  /**
   * Makes an interceptor that takes its leases from {@code managers}: a method's with a {@link
   * Leased#ttl()} from the manager of that TTL, the others' from the application's manager. The
   * suppliers are asked at each call, so that the managers, their store and its DataSource are made
   * when first needed, not when the beans are post-processed.
   *
   * @param managers the managers of the application's leases
   * @param placeholders resolves {@code ${...}} in keys, or null for none
   * @param holds keeps leases held until their {@link Leased#holdAtLeast()} has passed
   * @param fence gives the fence of {@link Leased#fencedTransaction()} methods, asked at their
   *     calls; empty if there is none
   */
  public LeasedInterceptor(
      Supplier<LeaseManagers> managers,
      @Nullable StringValueResolver placeholders,
      Supplier<HoldAtLeast> holds,
      Supplier<Optional<LeaseFence>> fence) {
    this.managers = managers;
    this.keys = new LeaseKeyResolver(placeholders);
    this.holds = holds;
    this.fence = fence;
  }

  @Override
  public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
    Object target = invocation.getThis();
    Method method =
        target == null
            ? invocation.getMethod()
            : AopUtils.getMostSpecificMethod(invocation.getMethod(), target.getClass());
    Settings call = settings.computeIfAbsent(method, Settings::of);
    String key = keys.key(call.key(), method, target, invocation.getArguments());
    long start = System.nanoTime();
    Lease lease;
    try {
      LeaseManagers all = managers.get();
      Duration ttl = call.ttl();
      LeaseManager leases = ttl == null ? all.defaultManager() : all.forTtl(ttl);
      lease = call.maxWait().isZero() ? leases.acquire(key) : leases.acquire(key, call.maxWait());
    } catch (LeaseHeld held) {
      LOG.log(
          System.Logger.Level.DEBUG,
          () -> "skipped " + method.getName() + ": the lease '" + key + "' is held elsewhere");
      return skipped(method.getReturnType());
    }
    try {
      return lease.runFenced(work(invocation, lease, call.fencedTransaction() ? method : null));
    } finally {
      Duration held = Duration.ofNanos(System.nanoTime() - start);
      Duration rest = call.holdAtLeast().minus(held);
      if (rest.isNegative() || rest.isZero() || !lease.isHeld()) {
        lease.close();
      } else {
        holds.get().closeLater(lease, rest);
      }
    }
  }

  // The work's T is @Nullable Object; NullAway's standard mode (the Java 17 build) reads the
  // lambda's return against a non-null T.
  @SuppressWarnings("NullAway")
  private FencedWork<@Nullable Object, Exception> work(
      MethodInvocation invocation, Lease lease, @Nullable Method fenced) {
    return token -> proceed(invocation, lease, token, fenced);
  }

  /** Runs the method with its lease; first checks the fence, if {@code fenced} names it. */
  private @Nullable Object proceed(
      MethodInvocation invocation, Lease lease, FencingToken token, @Nullable Method fenced)
      throws Exception {
    if (invocation instanceof ProxyMethodInvocation proxied) {
      proxied.setArguments(withLease(invocation.getArguments(), lease, token, invocation));
    }
    CurrentLease.Held before = CurrentLease.set(lease, token);
    try {
      if (fenced != null) {
        verifyFence(fenced, lease, token);
      }
      return invocation.proceed();
    } catch (Exception | Error e) {
      throw e;
    } catch (Throwable other) {
      throw new UndeclaredThrowableException(other);
    } finally {
      CurrentLease.restore(before);
    }
  }

  private void verifyFence(Method method, Lease lease, FencingToken token) {
    LeaseFence leaseFence =
        fence
            .get()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "@Leased(fencedTransaction = true) of "
                            + method
                            + " needs a LeaseFence bean, which the Spring Boot auto-configuration"
                            + " makes when the lease store is lease-jdbc's JdbcLeaseRepository on"
                            + " the application's one DataSource, with spring-jdbc present"));
    leaseFence.verifyBefore(method, lease, token);
  }

  /** The arguments, with the lease and its token in the parameters of their types. */
  private static @Nullable Object[] withLease(
      @Nullable Object[] arguments, Lease lease, FencingToken token, MethodInvocation invocation) {
    Class<?>[] types = invocation.getMethod().getParameterTypes();
    @Nullable Object[] replaced = arguments.clone();
    for (int i = 0; i < types.length && i < replaced.length; i++) {
      if (types[i] == FencingToken.class) {
        replaced[i] = token;
      } else if (types[i] == Lease.class) {
        replaced[i] = lease;
      }
    }
    return replaced;
  }

  /** What a skipped call returns: nothing, in the shape of the method's return type. */
  private static @Nullable Object skipped(Class<?> type) {
    if (type == Optional.class) {
      return Optional.empty();
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return '\0';
    }
    if (type.isPrimitive() && type != void.class) {
      return switch (type.getName()) {
        case "byte" -> (byte) 0;
        case "short" -> (short) 0;
        case "int" -> 0;
        case "long" -> 0L;
        case "float" -> 0f;
        default -> 0d;
      };
    }
    return null;
  }

  /** One method's {@link Leased} settings, parsed once. */
  private record Settings(
      String key,
      Duration maxWait,
      Duration holdAtLeast,
      @Nullable Duration ttl,
      boolean fencedTransaction) {

    static Settings of(Method method) {
      Leased leased = AnnotatedElementUtils.findMergedAnnotation(method, Leased.class);
      if (leased == null) {
        throw new IllegalStateException(method + " has no @Leased");
      }
      return new Settings(
          leased.key(),
          duration(leased.maxWait(), "maxWait", method),
          duration(leased.holdAtLeast(), "holdAtLeast", method),
          ttl(leased.ttl(), method),
          leased.fencedTransaction());
    }

    private static @Nullable Duration ttl(String text, Method method) {
      if (text.isBlank()) {
        return null;
      }
      Duration ttl = duration(text, "ttl", method);
      if (ttl.compareTo(LeaseConfig.MIN_TTL) < 0 || ttl.compareTo(LeaseConfig.MAX_DURATION) > 0) {
        throw new IllegalArgumentException(
            "@Leased(ttl = \""
                + text
                + "\") of "
                + method
                + " is not a TTL: it must be from "
                + LeaseConfig.MIN_TTL
                + " to "
                + LeaseConfig.MAX_DURATION
                + " (for example 30s or PT30S), was "
                + ttl);
      }
      return ttl;
    }

    private static Duration duration(String text, String attribute, Method method) {
      if (text.isBlank()) {
        return Duration.ZERO;
      }
      try {
        Duration parsed = DurationStyle.detectAndParse(text.strip());
        if (parsed.isNegative()) {
          throw new IllegalArgumentException("negative");
        }
        return parsed;
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "@Leased("
                + attribute
                + " = \""
                + text
                + "\") of "
                + method
                + " is not a duration"
                + " of zero or more (for example 500ms, 10s or PT10S)",
            e);
      }
    }
  }
}
