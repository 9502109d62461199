/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link LeaseManager#acquireAll} got: the leases it acquired, and for every other key why
 * not. Every key asked for is in exactly one of the three. Immutable; the leases themselves are
 * live, and renewed by their manager until closed.
 *
 * @param acquired the leases acquired, in the order of the keys asked for
 * @param held the keys another live holder has, with who holds each (as {@link
 *     LeaseManager#acquire} would have thrown it)
 * @param failed the keys whose acquisition failed on their own: the repository failed on that key
 *     alone (the write was undone if it landed), or the key lost race after race to other writers
 */
public record Acquisitions(
    List<Lease> acquired, Map<String, LeaseHeld> held, Map<String, LeaseRepositoryFailure> failed) {

  /**
   * Copies the parts, keeping the order of the maps.
   *
   * @param acquired see the class description
   * @param held see the class description
   * @param failed see the class description
   * @throws NullPointerException if a part is null or holds a null
   */
  public Acquisitions {
    acquired = List.copyOf(acquired);
    held = unmodifiableCopy(held);
    failed = unmodifiableCopy(failed);
  }

  private static <V> Map<String, V> unmodifiableCopy(Map<String, V> map) {
    Map<String, V> copy = new LinkedHashMap<>();
    map.forEach(
        (key, value) ->
            copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value")));
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Tells whether every key asked for was acquired.
   *
   * @return {@code true} if none is held by another or failed
   */
  public boolean acquiredAll() {
    return held.isEmpty() && failed.isEmpty();
  }
}
