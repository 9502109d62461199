/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseConfig;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration from the command line: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h},
 * {@code 1d}, combinations such as {@code 1m30s}, or ISO-8601 such as {@code PT30S}. Negative
 * durations, and durations over 36,500 days, are refused. Stateless and thread-safe.
 */
final class DurationConverter implements ITypeConverter<Duration> {

  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");

  @Override
  public Duration convert(String text) {
    String value = text.trim();
    Duration duration = parse(value);
    if (duration.isNegative()) {
      throw new TypeConversionException("'" + text + "' is negative; a duration must be 0 or more");
    }
    if (duration.compareTo(LeaseConfig.MAX_DURATION) > 0) {
      throw new TypeConversionException(
          "'" + text + "' is too long; a duration must be at most 36500d");
    }
    return duration;
  }

  private static Duration parse(String value) {
    try {
      if (value.toUpperCase(Locale.ROOT).startsWith("P")
          || value.toUpperCase(Locale.ROOT).startsWith("-P")) {
        return Duration.parse(value);
      }
      String lower = value.toLowerCase(Locale.ROOT);
      if (WHOLE.matcher(lower).matches()) {
        return sumOfParts(lower);
      }
    } catch (DateTimeParseException | ArithmeticException tooBigOrMalformed) {
      // reported below with the accepted forms
    }
    throw new TypeConversionException(
        "'" + value + "' is not a duration; use for example 500ms, 30s, 2m, 1h, 1m30s or PT30S");
  }

  private static Duration sumOfParts(String value) {
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(value);
    while (part.find()) {
      long amount;
      try {
        amount = Long.parseLong(part.group(1));
      } catch (NumberFormatException tooBig) {
        throw new ArithmeticException("too big");
      }
      total = total.plus(unit(part.group(2), amount));
    }
    return total;
  }

  private static Duration unit(String unit, long amount) {
    switch (unit) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      default:
        return Duration.ofDays(amount);
    }
  }

  /**
   * Formats a duration the way this converter reads it, for messages: {@code 1m30s}, {@code 500ms}.
   *
   * @param duration a duration of 0 or more
   * @return its short form
   */
  static String format(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    append(text, duration.toDaysPart(), "d");
    append(text, duration.toHoursPart(), "h");
    append(text, duration.toMinutesPart(), "m");
    append(text, duration.toSecondsPart(), "s");
    append(text, duration.toMillisPart(), "ms");
    return text.length() == 0 ? "<1ms" : text.toString();
  }

  private static void append(StringBuilder text, long amount, String unit) {
    if (amount > 0) {
      text.append(amount).append(unit);
    }
  }
}
