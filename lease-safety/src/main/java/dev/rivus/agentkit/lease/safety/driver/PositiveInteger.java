/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads an option's value as an integer above zero (counts and lengths of the drivers). */
final class PositiveInteger implements ITypeConverter<Integer> {

  @Override
  public Integer convert(String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException notANumber) {
      // reported below
    }
    throw new TypeConversionException("must be a positive integer, not " + value);
  }
}
