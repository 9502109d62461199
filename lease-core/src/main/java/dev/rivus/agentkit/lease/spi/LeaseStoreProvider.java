/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spi;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.util.List;

/**
 * Opens the repositories of one kind of store, named by a URI of its {@link #scheme()}: {@code
 * sqlite:PATH}, {@code dir:PATH}, {@code jdbc:postgresql://...}. Each store module provides one, in
 * its {@code module-info.java} ({@code provides dev.rivus.agentkit.lease.spi.LeaseStoreProvider
 * with ...}) and in {@code META-INF/services/dev.rivus.agentkit.lease.spi.LeaseStoreProvider} for
 * the class path; {@link LeaseStores} finds them with {@link java.util.ServiceLoader}.
 *
 * <p>A provider is instantiated whenever the providers are looked for, also by callers that open
 * another store: its class and constructor must load nothing of its store (a driver, a pool) until
 * {@link #open} is called. The class needs a public no-argument constructor; it may live in a
 * package the module does not export.
 *
 * <p>Implementations are thread-safe.
 */
public interface LeaseStoreProvider {

  /**
   * Returns the scheme this provider opens: lower-case ASCII letters, digits, {@code +}, {@code -}
   * and {@code .}, starting with a letter ({@code sqlite}, {@code dir}, {@code jdbc}).
   *
   * @return the scheme, without the colon
   */
  String scheme();

  /**
   * Opens the store {@code request} names, creating it first if {@link StoreRequest#create()}
   * allows. The messages of its failures name the request's settings as the caller spells them
   * ({@link StoreRequest#spelling}) and show no secret of the URI.
   *
   * @param request the store's URI, whether it may be created, and the store's own settings
   * @return the open repository; the caller closes it, which releases everything it opened
   * @throws dev.rivus.agentkit.lease.LeaseConfigInvalid if the URI or a setting is not one this
   *     provider accepts (the caller's mistake: nothing was opened)
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if the store cannot be reached, created
   *     or opened, or does not exist and may not be created
   */
  LeaseRepository open(StoreRequest request);

  /**
   * Returns the secrets written in a URI of this scheme, as written and as decoded (a password, a
   * token), for callers that scrub them from what they print. The default finds none. Works on any
   * text, malformed URIs too, and loads nothing of the store.
   *
   * @param uri a URI of this scheme, perhaps malformed
   * @return the secrets, none empty
   */
  default List<String> secretsIn(String uri) {
    return List.of();
  }
}
