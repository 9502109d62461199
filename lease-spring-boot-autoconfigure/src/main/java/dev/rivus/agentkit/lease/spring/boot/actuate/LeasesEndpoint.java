/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring.boot.actuate;

import dev.rivus.agentkit.lease.LeaseRepository;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The actuator endpoint {@code leases}: the leases this application holds ({@code
 * /actuator/leases}), and on request the store's records, of every holder ({@code
 * /actuator/leases/records}, at most {@value #RECORD_LIMIT} of them, by key) or of one key ({@code
 * /actuator/leases/records/{key}}, not found when the key has no record). Read-only. Thread-safe.
 *
 * <p>Like every endpoint but health, it is exposed over HTTP only when asked for ({@code
 * management.endpoints.web.exposure.include=health,leases}); its records name hosts and process
 * ids, so expose it where those may be seen.
 */
@Endpoint(id = "leases")
public final class LeasesEndpoint {

  /** The most records {@code /actuator/leases/records} lists. */
  public static final int RECORD_LIMIT = 1000;

  private final HeldLeases leases;
  private final LeaseRepository repository;

  /**
   * Shows what {@code leases} tracked and what {@code repository} holds.
   *
   * @param leases the tracker the application's managers tell
   * @param repository their store
   */
  public LeasesEndpoint(HeldLeases leases, LeaseRepository repository) {
    this.leases = Objects.requireNonNull(leases, "leases");
    this.repository = Objects.requireNonNull(repository, "repository");
  }

  /**
   * What {@code /actuator/leases} shows.
   *
   * @param leases the leases held here, by manager and key
   * @param rounds each manager's last renewal round
   */
  public record Held(List<HeldLeases.Held> leases, List<HeldLeases.Rounds> rounds) {}

  /**
   * What {@code /actuator/leases/records} shows.
   *
   * @param total how many records the store has
   * @param records the first {@value #RECORD_LIMIT} of them, by key
   */
  public record Records(int total, List<StoredRecord> records) {}

  /**
   * One stored record, as {@link LeaseSnapshot} holds it.
   *
   * @param key the key
   * @param generation its generation, the last fencing token granted
   * @param revision the record's revision
   * @param state held, released or pruned
   * @param holder the holder's host and process id
   * @param handle the holder's handle, unique per acquisition
   * @param ttl the TTL its holder renews within
   * @param updatedAt when the record was last written, on the writer's clock
   */
  public record StoredRecord(
      String key,
      long generation,
      long revision,
      String state,
      String holder,
      String handle,
      Duration ttl,
      Instant updatedAt) {

    static StoredRecord of(LeaseSnapshot snapshot) {
      return new StoredRecord(
          snapshot.key(),
          snapshot.generation(),
          snapshot.revision(),
          snapshot.state().name().toLowerCase(java.util.Locale.ROOT),
          snapshot.holder().process().toString(),
          snapshot.holder().handleId(),
          snapshot.ttl(),
          snapshot.updatedAt());
    }
  }

  /**
   * {@code /actuator/leases}.
   *
   * @return the leases held here
   */
  @ReadOperation
  public Held held() {
    return new Held(leases.held(), leases.rounds());
  }

  /**
   * {@code /actuator/leases/records} and {@code /actuator/leases/records/{key}}.
   *
   * @param path the path after {@code leases}: {@code records}, then the key, if any
   * @return the records, the one record, or null (not found) for another path or a key without a
   *     record
   */
  @ReadOperation
  public @Nullable Object records(@Selector(match = Selector.Match.ALL_REMAINING) String[] path) {
    if (path.length == 0 || !path[0].equals("records")) {
      return null;
    }
    if (path.length == 1) {
      List<LeaseSnapshot> all = repository.loadAll();
      List<StoredRecord> first =
          all.stream()
              .sorted(Comparator.comparing(LeaseSnapshot::key))
              .limit(RECORD_LIMIT)
              .map(StoredRecord::of)
              .toList();
      return new Records(all.size(), first);
    }
    String key = String.join("/", java.util.Arrays.asList(path).subList(1, path.length));
    return repository.load(key).map(StoredRecord::of).orElse(null);
  }
}
