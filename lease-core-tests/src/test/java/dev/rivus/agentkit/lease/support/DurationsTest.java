/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Durations#saturatedNanos} is {@link Duration#toNanos()} wherever that fits in a {@code
 * long}, and the nearest {@code long} beyond. Whether it fits is decided here by exact arithmetic,
 * not by catching the exception the helper itself catches.
 */
class DurationsTest {

  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);

  /**
   * The seconds where nanoseconds stop fitting in a long: Long.MAX_VALUE / 1e9, about 292 years.
   */
  private static final long LAST_FITTING_SECOND = Long.MAX_VALUE / 1_000_000_000L;

  @Provide
  Arbitrary<Duration> durations() {
    Arbitrary<Long> seconds =
        Arbitraries.oneOf(
            Arbitraries.longs(), // the whole range of Duration, mostly far beyond a long of nanos
            Arbitraries.longs().between(-LAST_FITTING_SECOND - 2, LAST_FITTING_SECOND + 2),
            Arbitraries.longs().between(LAST_FITTING_SECOND - 2, LAST_FITTING_SECOND + 2),
            Arbitraries.longs().between(-LAST_FITTING_SECOND - 3, -LAST_FITTING_SECOND + 1));
    Arbitrary<Integer> nanos = Arbitraries.integers().between(0, 999_999_999);
    return Combinators.combine(seconds, nanos).as(Duration::ofSeconds);
  }

  @Property(tries = 2000)
  void isToNanosWhereItFitsAndSaturatesBeyond(@ForAll("durations") Duration duration) {
    BigInteger exact =
        BigInteger.valueOf(duration.getSeconds())
            .multiply(NANOS_PER_SECOND)
            .add(BigInteger.valueOf(duration.getNano()));

    long nanos = Durations.saturatedNanos(duration);

    if (exact.compareTo(LONG_MAX) > 0) {
      assertThat(nanos).isEqualTo(Long.MAX_VALUE);
    } else if (exact.compareTo(LONG_MIN) < 0) {
      assertThat(nanos).isEqualTo(Long.MIN_VALUE);
    } else {
      assertThat(nanos).isEqualTo(duration.toNanos()).isEqualTo(exact.longValueExact());
    }
  }

  @Example
  void theLongestAndShortestNanosAreThemselves() {
    assertThat(Durations.saturatedNanos(Duration.ofNanos(Long.MAX_VALUE)))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(Durations.saturatedNanos(Duration.ofNanos(Long.MIN_VALUE)))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(Durations.saturatedNanos(Duration.ZERO)).isZero();
  }

  @Example
  void oneNanosecondBeyondSaturates() {
    assertThat(Durations.saturatedNanos(Duration.ofNanos(Long.MAX_VALUE).plusNanos(1)))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(Durations.saturatedNanos(Duration.ofNanos(Long.MIN_VALUE).minusNanos(1)))
        .isEqualTo(Long.MIN_VALUE);
  }

  @Example
  void aTtlOfThreeHundredYearsIsStoredAsTheLongestThatFits() {
    assertThat(Durations.saturatedNanos(Duration.ofDays(300L * 365))).isEqualTo(Long.MAX_VALUE);
    assertThat(Durations.saturatedNanos(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))
        .isEqualTo(Long.MAX_VALUE);
    assertThat(Durations.saturatedNanos(Duration.ofSeconds(Long.MIN_VALUE)))
        .isEqualTo(Long.MIN_VALUE);
  }

  @Example
  void negativeDurationsStayNegative() {
    assertThat(Durations.saturatedNanos(Duration.ofMillis(-5))).isEqualTo(-5_000_000L);
  }

  @Example
  void aNullDurationIsRefusedByName() {
    assertThatThrownBy(() -> Durations.saturatedNanos(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("duration");
  }
}
