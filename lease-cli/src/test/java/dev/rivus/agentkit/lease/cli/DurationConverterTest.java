/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {

  private final DurationConverter converter = new DurationConverter();

  @ParameterizedTest(name = "{0} = {1} ms")
  @CsvSource({
    "500ms, 500",
    "30s, 30000",
    "2m, 120000",
    "1h, 3600000",
    "1d, 86400000",
    "1m30s, 90000",
    "1h2m3s4ms, 3723004",
    "0s, 0",
    "30S, 30000",
    "PT30S, 30000",
    "pt0.5s, 500",
    "P1DT1H, 90000000",
    "' 10s ', 10000"
  })
  void readsShortFormsAndIso8601(String text, long millis) {
    assertThat(converter.convert(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "soon", "30", "s", "1.5s", "-5s", "10 s", "1y", "PT", "99999999999999999999s"})
  void refusesAnythingElseWithAMessageThatShowsTheAcceptedForms(String text) {
    assertThatThrownBy(() -> converter.convert(text))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining(
            "is not a duration; use for example 500ms, 30s, 2m, 1h, 1m30s or PT30S");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-PT5S", "PT-1S"})
  void refusesNegativeDurations(String text) {
    assertThatThrownBy(() -> converter.convert(text))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("is negative");
  }

  @ParameterizedTest
  @ValueSource(strings = {"36501d", "200000d", "PT876001H"})
  void refusesDurationsTooLongForTheClocks(String text) {
    assertThatThrownBy(() -> converter.convert(text))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("is too long; a duration must be at most 36500d");
  }

  @ParameterizedTest(name = "{1} -> {0}")
  @CsvSource({"0s, 0", "500ms, 500", "1m30s, 90000", "1d2h, 93600000", "<1ms, 0.1"})
  void formatsDurationsTheWayItReadsThem(String text, double millis) {
    assertThat(DurationConverter.format(Duration.ofNanos((long) (millis * 1_000_000))))
        .isEqualTo(text);
  }
}
