/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The options, which need no database. */
class JdbcOptionsTest {

  @Test
  void tableNamesAreValidated() {
    assertThat(JdbcOptions.defaults().tableName()).isEqualTo("lease_records");
    assertThat(JdbcOptions.builder().tableName("_leases_2").build().tableName())
        .isEqualTo("_leases_2");
    assertThat(JdbcOptions.builder().tableName("t".repeat(57)).build().tableName()).hasSize(57);
    for (String bad :
        new String[] {
          "", "Leases", "2leases", "leases; drop table x", "public.leases", "lé", "t".repeat(58)
        }) {
      assertThatThrownBy(() -> JdbcOptions.builder().tableName(bad))
          .as("table name '%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not allowed");
    }
  }

  @Test
  void reservedWordsAreRefusedRatherThanFailingAtTheFirstStatement() {
    for (String reserved : new String[] {"select", "user", "order", "table", "desc", "key"}) {
      assertThatThrownBy(() -> JdbcOptions.builder().tableName(reserved))
          .as("table name '%s'", reserved)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "table name '"
                  + reserved
                  + "' is not allowed: it is a reserved word of SQL (PostgreSQL or MariaDB), which"
                  + " cannot name a table; choose another, such as '"
                  + reserved
                  + "_leases'");
    }
    // Words that are only keywords, not reserved, still name tables.
    assertThat(JdbcOptions.builder().tableName("leases").build().tableName()).isEqualTo("leases");
    assertThat(JdbcOptions.builder().tableName("selected").build().tableName())
        .isEqualTo("selected");
  }

  @Test
  void theKeyLockLimitIsAtLeastOne() {
    assertThat(JdbcOptions.defaults().keyLockLimit()).isEqualTo(JdbcOptions.DEFAULT_KEY_LOCK_LIMIT);
    JdbcOptions one = JdbcOptions.builder().tableName("t").keyLockLimit(1).build();
    assertThat(one.keyLockLimit()).isEqualTo(1);
    assertThat(one.tableName()).isEqualTo("t");
    assertThat(one).isEqualTo(JdbcOptions.builder().keyLockLimit(1).tableName("t").build());
    assertThat(one).isNotEqualTo(JdbcOptions.builder().tableName("t").build());
    assertThatThrownBy(() -> JdbcOptions.builder().keyLockLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  void theOtherLimitsAreValidatedAndTheDefaultsOpenWithoutCreating() {
    JdbcOptions defaults = JdbcOptions.defaults();
    assertThat(defaults.createIfMissing()).isFalse();
    assertThat(defaults.fencedTransactionLimit())
        .isEqualTo(JdbcOptions.DEFAULT_FENCED_TRANSACTION_LIMIT);
    assertThat(defaults.networkTimeout()).isEqualTo(JdbcOptions.DEFAULT_NETWORK_TIMEOUT);
    assertThat(defaults).isEqualTo(JdbcOptions.builder().build());
    assertThat(defaults.hashCode()).isEqualTo(JdbcOptions.builder().build().hashCode());

    JdbcOptions creating = JdbcOptions.builder().createIfMissing(true).build();
    assertThat(creating.createIfMissing()).isTrue();
    assertThat(creating).isNotEqualTo(defaults);
    assertThat(creating.toString())
        .isEqualTo(
            "JdbcOptions[tableName=lease_records, createIfMissing=true, keyLockLimit=4,"
                + " fencedTransactionLimit=4, networkTimeout=PT10S]");

    assertThatThrownBy(() -> JdbcOptions.builder().fencedTransactionLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
    assertThat(JdbcOptions.builder().networkTimeout(Duration.ofMillis(1)).build().networkTimeout())
        .isEqualTo(Duration.ofMillis(1));
    for (Duration bad :
        new Duration[] {
          Duration.ZERO,
          Duration.ofNanos(999_999),
          Duration.ofMillis(-1),
          Duration.ofMillis(Integer.MAX_VALUE + 1L),
          Duration.ofSeconds(Long.MAX_VALUE)
        }) {
      assertThatThrownBy(() -> JdbcOptions.builder().networkTimeout(bad))
          .as("network timeout %s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("networkTimeout must be between 1 ms and");
    }
  }

  @Test
  @SuppressWarnings("NullAway") // passes null where the API forbids it, to see how it is refused
  void aNullTableNameIsRefusedByName() {
    assertThatThrownBy(() -> JdbcOptions.builder().tableName(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tableName");
  }
}
