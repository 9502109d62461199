/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A store request: its parts, its defaults, and a string that shows no secret. */
class StoreRequestTest {

  @Test
  void theDefaultsMayCreateTheStoreWithItsOwnBusyWaitAndNoSettings() {
    StoreRequest request = StoreRequest.builder("sqlite:/tmp/x.db").build();

    assertThat(request.scheme()).isEqualTo("sqlite");
    assertThat(request.uri()).isEqualTo("sqlite:/tmp/x.db");
    assertThat(request.location()).isEqualTo("/tmp/x.db");
    assertThat(request.create()).isTrue();
    assertThat(request.busyWait()).isEmpty();
    assertThat(request.holding()).isFalse();
    assertThat(request.settings()).isEmpty();
    assertThat(request.spelling("table", "table")).isEqualTo("table");
  }

  @Test
  void aChosenSchemeKeepsTheWholeUriAsItsLocationWhenItStartsWithAnother() {
    StoreRequest chosen = StoreRequest.builder("JDBC", "postgres://h/d").build();
    StoreRequest prefixed = StoreRequest.builder("jdbc", "jdbc:postgresql://h/d").build();

    assertThat(chosen.scheme()).isEqualTo("jdbc");
    assertThat(chosen.location()).isEqualTo("postgres://h/d");
    assertThat(prefixed.location()).isEqualTo("postgresql://h/d");
    assertThat(prefixed).isEqualTo(StoreRequest.builder("jdbc:postgresql://h/d").build());
    assertThatThrownBy(() -> StoreRequest.builder("1x", "u").build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void itsStringNamesTheSettingsButNoValueNorTheLocation() {
    StoreRequest request =
        StoreRequest.builder("jdbc:postgresql://u:hunter2@h/d")
            .create(false)
            .busyWait(Duration.ofSeconds(2))
            .holding(true)
            .setting("password", "lion")
            .setting("table", "t")
            .build();

    assertThat(request.settings()).isEqualTo(Map.of("password", "lion", "table", "t"));
    assertThat(request)
        .hasToString(
            "StoreRequest[scheme=jdbc, create=false, busyWait=PT2S, holding=true,"
                + " settings=[password, table]]");
  }

  @Test
  void aNegativeBusyWaitOrAnEmptySettingNameIsRefused() {
    StoreRequest.Builder builder = StoreRequest.builder("dir:/tmp");

    assertThatThrownBy(() -> builder.busyWait(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("busyWait must be zero or positive, was PT-0.001S");
    assertThatThrownBy(() -> builder.setting("", "x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.setting("x", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("value");
  }
}
