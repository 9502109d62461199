/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a bean method under the lease on {@link #key()}: as fenced work of the lease, on one
 * instance at a time across every process that shares the store.
 *
 * <p>Each call acquires the lease (waiting up to {@link #maxWait()}), runs the method as {@link
 * dev.rivus.agentkit.lease.Lease#runFenced fenced work}, and releases the lease when the method
 * returns, or at {@link #holdAtLeast()} from the call's start if that is later. When another live
 * instance holds the lease, the call is <em>skipped</em>, not failed: the method does not run, the
 * call returns {@code null} (zero, {@code false} or an empty {@code Optional} for those return
 * types), the skip is logged at DEBUG and counted in {@code lease.acquisitions} with the outcome
 * {@code held_by_another}. A loss of the lease while the method runs interrupts it, and the call
 * then throws {@link dev.rivus.agentkit.lease.LeaseLost}.
 *
 * <p>The running method gets its fencing token from a parameter of type {@link
 * dev.rivus.agentkit.lease.FencingToken} or {@link dev.rivus.agentkit.lease.Lease} (the caller
 * passes {@code null}; the lease's value replaces it), or from {@link CurrentLease#token()}, which
 * is how a {@code @Scheduled} method (which takes no parameters) gets it. Pass it with every write
 * to the resource the lease protects.
 *
 * <p>Works with {@code @Async} (the lease is taken on the thread that runs the method) and on
 * virtual threads. Not for methods of the same bean called through {@code this}, which Spring's
 * proxies do not see.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Leased {

  /**
   * The lease key. {@code ${...}} placeholders are resolved from the environment, then {@code
   * #{...}} expressions are evaluated in SpEL over the method's arguments by name ({@code #region})
   * or position ({@code #p0}), for example {@code "report-${spring.profiles.active}-#{#region}"}.
   *
   * @return the key, or the template of the key
   */
  String key();

  /**
   * How long to wait for the lease when another instance holds it, as a duration ({@code 500ms},
   * {@code 10s}, ISO-8601 {@code PT10S}); empty or zero means one try, then skip.
   *
   * @return how long to wait
   */
  String maxWait() default "";

  /**
   * Keeps the lease for at least this long from the call's start, even when the method ends sooner
   * (ShedLock's {@code lockAtLeastFor}): instances whose schedules are up to this far apart then
   * run each slot once. Empty means release at once. A duration as for {@link #maxWait()}.
   *
   * @return how long to hold the lease at least
   */
  String holdAtLeast() default "";

  /**
   * The TTL of this method's leases, as a duration like {@link #maxWait()} ({@code 30s}, {@code
   * PT30S}), from {@link dev.rivus.agentkit.lease.LeaseConfig#MIN_TTL 1s} up; empty means the TTL
   * of the application's manager ({@code lease.ttl}). A job that must be taken over soon after its
   * instance dies takes a short TTL, one whose instance may pause for long a long TTL. Its leases
   * come from a manager of their own on the same store, one per distinct TTL, made at the first
   * call and closed with the context, with the same listeners; its heartbeat is {@code
   * lease.heartbeat} if that is at most half the TTL, else a quarter of the TTL. An instance takes
   * a key over only from a holder whose record stayed unchanged for the longer of its own TTL and
   * the one in that record, so instances whose TTLs differ never take a key from a holder that
   * renews. An invalid TTL fails the first call, with a message that names the method.
   *
   * @return the TTL, or empty for the manager's
   */
  String ttl() default "";

  /**
   * Whether the method's Spring transaction is fenced before its body runs: {@link
   * LeaseFence#verify()} is called then, inside the lease's fenced work, so that the transaction
   * commits only while the lease is still this holder's. The transaction must be active at that
   * point: make the method, or its caller, {@code @Transactional}. On a method that has both,
   * Spring's transaction advice runs outside this one (the lease is taken inside the transaction),
   * so the transaction is active. Needs a {@link LeaseFence} bean (the Spring Boot
   * auto-configuration makes one when the store is lease-jdbc's on the application's DataSource). A
   * call with no active transaction, or no fence, fails with an {@link IllegalStateException} that
   * names the method, before the body runs; a lease found lost fails it with {@link
   * dev.rivus.agentkit.lease.LeaseLost}, and the transaction rolls back. From the check until the
   * transaction ends, no successor's acquisition of the key can commit, so keep such methods short.
   * Default {@code false}.
   *
   * @return {@code true} to fence the method's transaction
   */
  boolean fencedTransaction() default false;
}
