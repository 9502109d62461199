/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease;

/**
 * A lease configuration was rejected before anything started: a duration was missing, not positive,
 * or the heartbeat was too slow for the TTL; or a store's URI or setting was refused before it was
 * opened ({@link dev.rivus.agentkit.lease.spi.StoreRequest}). The message names the setting and the
 * value.
 */
public final class LeaseConfigInvalid extends LeaseException {

  private static final long serialVersionUID = 1L;

  private final String setting;

  /**
   * Creates the failure.
   *
   * @param setting the name of the rejected setting, for example {@code "heartbeat"}
   * @param message what is wrong, naming the value
   */
  public LeaseConfigInvalid(String setting, String message) {
    super(message, null);
    this.setting = setting;
  }

  /**
   * Returns the name of the rejected setting.
   *
   * @return the setting, for example {@code "ttl"} or {@code "heartbeat"}
   */
  public String setting() {
    return setting;
  }
}
