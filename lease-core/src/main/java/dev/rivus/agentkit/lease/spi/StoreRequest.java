/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spi;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a caller asks a {@link LeaseStoreProvider} to open: the store's URI ({@code sqlite:PATH},
 * {@code dir:PATH}, {@code jdbc:postgresql://...}), whether the store may be created, how long one
 * call may wait for a busy store, whether the caller holds leases, the store's own settings (a JDBC
 * table's name, say), and how the caller's user spells each of them, so that a provider's messages
 * speak the caller's words ({@code --jdbc-table}, not {@code table}). Immutable and thread-safe;
 * validated once, by {@link Builder#build()}.
 *
 * <pre>{@code
 * StoreRequest request =
 *     StoreRequest.builder("jdbc:postgresql://db.example/ops")
 *         .create(false)
 *         .setting("table", "ci_leases")
 *         .spelling("table", "--jdbc-table")
 *         .build();
 * LeaseRepository repository = LeaseStores.installed().open(request);
 * }</pre>
 *
 * <p>Its {@link #toString()} names the scheme and the settings but shows none of their values, nor
 * the location: any of them may hold a secret.
 */
public final class StoreRequest {

  /**
   * The name whose {@linkplain #spelling spelling} is how the caller names where the URI came from,
   * for messages about it: {@code --jdbc}, {@code $LEASE_JDBC_URL}.
   */
  public static final String LOCATION = "location";

  /**
   * The name whose spelling is how messages name the caller, when the store may not be created:
   * {@code this command}.
   */
  public static final String CALLER = "caller";

  /**
   * The name whose spelling says who creates the store when this caller may not: {@code run,
   * release and prune}.
   */
  public static final String CREATORS = "creators";

  /** RFC 3986's scheme, and the colon after it. */
  private static final Pattern SCHEME = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*):");

  private final String scheme;
  private final String uri;
  private final boolean create;
  private final @Nullable Duration busyWait;
  private final boolean holding;
  private final Map<String, String> settings;
  private final Map<String, String> spellings;

  private StoreRequest(Builder builder, String scheme) {
    this.scheme = scheme;
    this.uri = builder.uri;
    this.create = builder.create;
    this.busyWait = builder.busyWait;
    this.holding = builder.holding;
    this.settings = Collections.unmodifiableMap(new TreeMap<>(builder.settings));
    this.spellings = Collections.unmodifiableMap(new TreeMap<>(builder.spellings));
  }

  /**
   * Starts a request for the store of {@code uri}, whose scheme chooses the provider. The builder
   * holds the defaults: the store may be created, the store's own busy wait, no leases held, no
   * settings.
   *
   * @param uri {@code SCHEME:LOCATION}, the scheme in any case
   * @return a new builder
   * @throws NullPointerException if {@code uri} is null
   */
  public static Builder builder(String uri) {
    return new Builder(null, Objects.requireNonNull(uri, "uri"));
  }

  /**
   * Starts a request to the provider of {@code scheme} for {@code uri}, for a caller that knows
   * which kind of store it means whatever the URI says: the {@code lease} command's {@code --jdbc
   * URL} goes to the {@code jdbc} provider even when the URL starts with another scheme, so that
   * the provider says what is wrong with it.
   *
   * @param scheme the provider's scheme
   * @param uri the URI, which may start with another scheme or none
   * @return a new builder
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(String scheme, String uri) {
    return new Builder(
        Objects.requireNonNull(scheme, "scheme"), Objects.requireNonNull(uri, "uri"));
  }

  /**
   * Returns the scheme that chooses the provider, in lower case.
   *
   * @return the scheme, without the colon
   */
  public String scheme() {
    return scheme;
  }

  /**
   * Returns the URI as the caller gave it. It starts with {@code scheme():} unless the caller chose
   * the provider itself ({@link #builder(String, String)}).
   *
   * @return the URI
   */
  public String uri() {
    return uri;
  }

  /**
   * Returns the URI after {@code scheme():}: a path for {@code sqlite:} and {@code dir:}; the whole
   * URI if it does not start with the scheme.
   *
   * @return the location, perhaps empty
   */
  public String location() {
    int colon = scheme.length();
    boolean prefixed =
        uri.length() > colon
            && uri.charAt(colon) == ':'
            && uri.regionMatches(true, 0, scheme, 0, colon);
    return prefixed ? uri.substring(colon + 1) : uri;
  }

  /**
   * Returns the location as an absolute path, for stores that live in a file or a directory.
   *
   * @param what what the path names, for messages ({@code "directory"}, {@code "database file"})
   * @return the absolute path
   * @throws LeaseConfigInvalid if the location is empty (saying to write {@code scheme():PATH}) or
   *     not a valid path on this file system
   */
  public Path locationPath(String what) {
    String location = location();
    String spelled = spelling(LOCATION, "the URI");
    if (location.isEmpty()) {
      throw new LeaseConfigInvalid(
          LOCATION, spelled + " names no " + what + ": write " + scheme + ":PATH");
    }
    try {
      return Path.of(location).toAbsolutePath();
    } catch (InvalidPathException e) {
      throw new LeaseConfigInvalid(
          LOCATION, spelled + " names no valid " + what + ": " + e.getMessage());
    }
  }

  /**
   * Tells whether the store may be created if it does not exist. A caller that only reads ({@code
   * lease status}, {@code lease list}) says {@code false}, so that a mistyped location fails
   * instead of leaving an empty store in which every lease reads as absent; nor is a store that
   * exists then written to, so that it can be read on a read-only file system.
   *
   * @return {@code true} by default
   */
  public boolean create() {
    return create;
  }

  /**
   * Returns how long one call of the repository may wait for a store that another process holds
   * busy (an SQLite lock, a free pooled connection), if the caller chose; else the store's default.
   *
   * @return the busy wait, or empty for the store's default
   */
  public Optional<Duration> busyWait() {
    return Optional.ofNullable(busyWait);
  }

  /**
   * Tells whether the caller holds leases on the repository ({@code lease run}): it renews on one
   * thread while another uses the store, and takes key locks, which a pooled store may prepare
   * connections for.
   *
   * @return {@code false} by default
   */
  public boolean holding() {
    return holding;
  }

  /**
   * Returns one of the store's own settings.
   *
   * @param name the setting's name, as the provider documents it ({@code table})
   * @return its value, or empty if the caller set none
   */
  public Optional<String> setting(String name) {
    return Optional.ofNullable(settings.get(Objects.requireNonNull(name, "name")));
  }

  /**
   * Returns the store's own settings.
   *
   * @return the settings by name, sorted; unmodifiable
   */
  public Map<String, String> settings() {
    return settings;
  }

  /**
   * Returns how the caller's user spells a setting or one of the names {@link #LOCATION}, {@link
   * #CALLER} and {@link #CREATORS}, for messages: the {@code lease} command spells the JDBC setting
   * {@code table} as {@code --jdbc-table}, and {@code create-table=false} as {@code
   * --no-create-table}.
   *
   * @param name the setting's or the name's name
   * @param otherwise the words to use if the caller gave none
   * @return the caller's spelling, else {@code otherwise}
   */
  public String spelling(String name, String otherwise) {
    return spellings.getOrDefault(Objects.requireNonNull(name, "name"), otherwise);
  }

  /**
   * Refuses settings the provider does not know, so that a mistyped name fails instead of being
   * ignored.
   *
   * @param known the names of the provider's settings
   * @throws LeaseConfigInvalid naming the first unknown setting and the known ones
   */
  public void requireKnownSettings(String... known) {
    List<String> names = List.of(known);
    for (String name : settings.keySet()) {
      if (!names.contains(name)) {
        throw new LeaseConfigInvalid(
            name,
            "unknown setting '"
                + spelling(name, name)
                + "' for a "
                + scheme
                + ": store ("
                + (names.isEmpty()
                    ? "it has none"
                    : "known: " + String.join(", ", new TreeSet<>(names)))
                + ")");
      }
    }
  }

  @Override
  public boolean equals(@Nullable Object other) {
    if (!(other instanceof StoreRequest)) {
      return false;
    }
    StoreRequest that = (StoreRequest) other;
    return scheme.equals(that.scheme)
        && uri.equals(that.uri)
        && create == that.create
        && Objects.equals(busyWait, that.busyWait)
        && holding == that.holding
        && settings.equals(that.settings)
        && spellings.equals(that.spellings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, uri, create, busyWait, holding, settings, spellings);
  }

  /** Names the scheme and the settings, without the location or any value, which may be secret. */
  @Override
  public String toString() {
    return "StoreRequest[scheme="
        + scheme
        + ", create="
        + create
        + ", busyWait="
        + (busyWait == null ? "default" : busyWait)
        + ", holding="
        + holding
        + ", settings="
        + settings.keySet()
        + "]";
  }

  /** Builds a {@link StoreRequest}. Not thread-safe; use it from one thread. */
  public static final class Builder {

    private final @Nullable String scheme;
    private final String uri;
    private boolean create = true;
    private @Nullable Duration busyWait;
    private boolean holding;
    private final Map<String, String> settings = new TreeMap<>();
    private final Map<String, String> spellings = new TreeMap<>();

    private Builder(@Nullable String scheme, String uri) {
      this.scheme = scheme;
      this.uri = uri;
    }

    /**
     * Chooses whether the store may be created if it does not exist (the default); see {@link
     * StoreRequest#create()}.
     *
     * @param create {@code false} for a caller that only reads an existing store
     * @return this builder
     */
    public Builder create(boolean create) {
      this.create = create;
      return this;
    }

    /**
     * Sets how long one call may wait for a busy store, instead of the store's default.
     *
     * @param busyWait zero (one try) or positive
     * @return this builder
     * @throws NullPointerException if {@code busyWait} is null
     * @throws IllegalArgumentException if {@code busyWait} is negative
     */
    public Builder busyWait(Duration busyWait) {
      Objects.requireNonNull(busyWait, "busyWait");
      if (busyWait.isNegative()) {
        throw new IllegalArgumentException("busyWait must be zero or positive, was " + busyWait);
      }
      this.busyWait = busyWait;
      return this;
    }

    /**
     * Says whether the caller holds leases on the repository; see {@link StoreRequest#holding()}.
     *
     * @param holding {@code true} for a caller that renews leases and takes key locks
     * @return this builder
     */
    public Builder holding(boolean holding) {
      this.holding = holding;
      return this;
    }

    /**
     * Sets one of the store's own settings, replacing an earlier value.
     *
     * @param name the setting's name, as the provider documents it
     * @param value its value
     * @return this builder
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is empty
     */
    public Builder setting(String name, String value) {
      settings.put(requireName(name), Objects.requireNonNull(value, "value"));
      return this;
    }

    /**
     * Sets how the caller's user spells a setting, or {@link #LOCATION}, {@link #CALLER} or {@link
     * #CREATORS}; see {@link StoreRequest#spelling}.
     *
     * @param name the setting's or the name's name
     * @param spelling the caller's words for it ({@code --jdbc-table})
     * @return this builder
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is empty
     */
    public Builder spelling(String name, String spelling) {
      spellings.put(requireName(name), Objects.requireNonNull(spelling, "spelling"));
      return this;
    }

    /**
     * Builds the request.
     *
     * @return the request
     * @throws LeaseConfigInvalid if the URI has no scheme (and none was chosen), or the chosen
     *     scheme is not one; the message names the URI by its {@linkplain #LOCATION spelling},
     *     never by its text
     */
    public StoreRequest build() {
      String chosen = scheme;
      if (chosen == null) {
        Matcher prefix = SCHEME.matcher(uri);
        if (!prefix.lookingAt()) {
          throw new LeaseConfigInvalid(
              LOCATION,
              spellings.getOrDefault(LOCATION, "a store URI")
                  + " must be SCHEME:LOCATION, such as sqlite:PATH, dir:PATH or"
                  + " jdbc:postgresql://HOST/DATABASE");
        }
        chosen = prefix.group(1);
      } else if (!SCHEME.matcher(chosen + ":").matches()) {
        throw new IllegalArgumentException("not a URI scheme: '" + chosen + "'");
      }
      return new StoreRequest(this, chosen.toLowerCase(Locale.ROOT));
    }

    private static String requireName(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a setting's name must not be empty");
      }
      return name;
    }
  }
}
