/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

import java.util.Objects;

/**
 * The holder of a lease: the process that holds it, and the id of the handle within that process.
 *
 * @param process the holding process
 * @param handleId an id unique to one {@link Lease} handle; two acquisitions never share it
 */
public record HolderIdentity(ProcessIdentity process, String handleId) {

  /**
   * Validates the components.
   *
   * @param process see the class description
   * @param handleId see the class description
   * @throws NullPointerException if a component is null
   * @throws IllegalArgumentException if the handle id is empty
   */
  public HolderIdentity {
    Objects.requireNonNull(process, "process");
    Objects.requireNonNull(handleId, "handleId");
    if (handleId.isEmpty()) {
      throw new IllegalArgumentException("handleId must not be empty");
    }
  }

  @Override
  public String toString() {
    return process + " handle " + handleId;
  }
}
