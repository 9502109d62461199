/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spi;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.LeaseRepository;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one door to every store a tool can name by URI: finds the {@link LeaseStoreProvider}s with
 * {@link ServiceLoader} (the modules that {@code provides} one, and the class path's {@code
 * META-INF/services}), and opens a URI with the provider of its scheme.
 *
 * <pre>{@code
 * LeaseStores stores = LeaseStores.installed();
 * try (LeaseRepository repository = stores.open("sqlite:/var/lib/app/leases.db")) { ... }
 * }</pre>
 *
 * <p>Immutable and thread-safe: the providers are found and instantiated once, by the factory.
 */
public final class LeaseStores {

  /** A scheme as a provider must name it: RFC 3986's, in lower case. */
  private static final Pattern PROVIDER_SCHEME = Pattern.compile("[a-z][a-z0-9+.-]*");

  /** The scheme that starts a text that may be a URI. */
  private static final Pattern URI_SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):");

  private final Map<String, LeaseStoreProvider> providers;
  private final Map<String, List<String>> duplicates;
  private final List<String> failures;

  private LeaseStores(
      Map<String, LeaseStoreProvider> providers,
      Map<String, List<String>> duplicates,
      List<String> failures) {
    this.providers = Collections.unmodifiableMap(new TreeMap<>(providers));
    this.duplicates = Collections.unmodifiableMap(new TreeMap<>(duplicates));
    this.failures = List.copyOf(failures);
  }

  /**
   * Finds the providers installed where the current thread's context class loader, and the module
   * layer of the boot, see them. A provider that cannot be loaded, or names no valid scheme, is
   * left out, and named in the failure of a URI of an unknown scheme; two providers of one scheme
   * make that scheme fail to open.
   *
   * @return the stores of the installed providers
   */
  public static LeaseStores installed() {
    Map<String, LeaseStoreProvider> found = new TreeMap<>();
    Map<String, List<String>> duplicates = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    Iterator<LeaseStoreProvider> loader = ServiceLoader.load(LeaseStoreProvider.class).iterator();
    while (true) {
      LeaseStoreProvider provider;
      try {
        if (!loader.hasNext()) {
          break;
        }
        provider = loader.next();
      } catch (ServiceConfigurationError e) {
        // The iterator goes on to the next provider after an error.
        failures.add(String.valueOf(e.getMessage()));
        continue;
      }
      String scheme = provider.scheme();
      if (scheme == null || !PROVIDER_SCHEME.matcher(scheme).matches()) {
        failures.add(className(provider) + " names no valid scheme: '" + scheme + "'");
        continue;
      }
      LeaseStoreProvider first = found.putIfAbsent(scheme, provider);
      if (first != null) {
        duplicates
            .computeIfAbsent(scheme, s -> new ArrayList<>(List.of(className(first))))
            .add(className(provider));
      }
    }
    return new LeaseStores(found, duplicates, failures);
  }

  /**
   * Makes the stores of the given providers alone, without looking for others: for a caller that
   * chooses its stores itself, and for tests.
   *
   * @param providers the providers, one per scheme
   * @return their stores
   * @throws NullPointerException if a provider, or its scheme, is null
   * @throws IllegalArgumentException if a scheme is not a lower-case URI scheme, or two providers
   *     name the same one
   */
  public static LeaseStores of(LeaseStoreProvider... providers) {
    Map<String, LeaseStoreProvider> found = new TreeMap<>();
    for (LeaseStoreProvider provider : providers) {
      Objects.requireNonNull(provider, "provider");
      String scheme = Objects.requireNonNull(provider.scheme(), "scheme");
      if (!PROVIDER_SCHEME.matcher(scheme).matches()) {
        throw new IllegalArgumentException(
            className(provider) + " names no valid scheme: '" + scheme + "'");
      }
      LeaseStoreProvider first = found.putIfAbsent(scheme, provider);
      if (first != null) {
        throw new IllegalArgumentException(
            "two providers of scheme '"
                + scheme
                + "': "
                + className(first)
                + " and "
                + className(provider));
      }
    }
    return new LeaseStores(found, Map.of(), List.of());
  }

  /**
   * Returns the schemes these stores can open.
   *
   * @return the schemes, sorted; unmodifiable
   */
  public SortedSet<String> schemes() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(providers.keySet()));
  }

  /**
   * Opens the store of {@code uri} with the defaults of {@link StoreRequest#builder(String)}: it
   * may be created, and the store's own busy wait applies.
   *
   * @param uri {@code SCHEME:LOCATION}
   * @return the open repository; the caller closes it
   * @throws LeaseConfigInvalid if the URI has no scheme, no provider opens its scheme, or the
   *     provider refuses the URI
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if the store cannot be opened
   */
  public LeaseRepository open(String uri) {
    return open(StoreRequest.builder(uri).build());
  }

  /**
   * Opens the store {@code request} names, with the provider of its scheme.
   *
   * @param request the store and how to open it
   * @return the open repository; the caller closes it
   * @throws LeaseConfigInvalid if no provider, or more than one, opens the request's scheme; or the
   *     provider refuses the URI or a setting
   * @throws dev.rivus.agentkit.lease.LeaseRepositoryFailure if the store cannot be reached, created
   *     or opened, or does not exist and may not be created
   */
  public LeaseRepository open(StoreRequest request) {
    Objects.requireNonNull(request, "request");
    String scheme = request.scheme();
    List<String> rivals = duplicates.get(scheme);
    if (rivals != null) {
      throw new LeaseConfigInvalid(
          "scheme",
          "more than one lease store provider for scheme '"
              + scheme
              + "' ("
              + String.join(", ", rivals)
              + "): remove all jars but one");
    }
    LeaseStoreProvider provider = providers.get(scheme);
    if (provider == null) {
      throw new LeaseConfigInvalid("scheme", unknown(scheme));
    }
    return Objects.requireNonNull(
        provider.open(request), () -> className(provider) + " opened no repository");
  }

  /**
   * Returns the secrets written in a text that may be a store URI (a password in a JDBC URL), as
   * its scheme's provider finds them; none for a text of no known scheme.
   *
   * @param text any text, perhaps a URI, perhaps malformed
   * @return the secrets, as written and as decoded, none empty
   */
  public List<String> secretsIn(String text) {
    Matcher prefix = URI_SCHEME.matcher(Objects.requireNonNull(text, "text"));
    if (!prefix.lookingAt()) {
      return List.of();
    }
    return secretsIn(prefix.group(1), text);
  }

  /**
   * Returns the secrets written in a text meant for the provider of {@code scheme}, whatever the
   * text starts with (see {@link StoreRequest#builder(String, String)}); none if no provider opens
   * the scheme.
   *
   * @param scheme the provider's scheme, in any case
   * @param text any text, perhaps a URI, perhaps malformed
   * @return the secrets, as written and as decoded, none empty
   */
  public List<String> secretsIn(String scheme, String text) {
    Objects.requireNonNull(text, "text");
    LeaseStoreProvider provider =
        providers.get(Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT));
    return provider == null ? List.of() : List.copyOf(provider.secretsIn(text));
  }

  private String unknown(String scheme) {
    String message =
        "no lease store provider for scheme '"
            + scheme
            + "' (known: "
            + (providers.isEmpty() ? "none" : String.join(", ", providers.keySet()))
            + "): is its jar on the class path?";
    return failures.isEmpty()
        ? message
        : message
            + " ("
            + failures.size()
            + " could not be loaded: "
            + String.join("; ", failures)
            + ")";
  }

  private static String className(LeaseStoreProvider provider) {
    return provider.getClass().getName();
  }

  @Override
  public String toString() {
    return "LeaseStores" + providers.keySet();
  }
}
