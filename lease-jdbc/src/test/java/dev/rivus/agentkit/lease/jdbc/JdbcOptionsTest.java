/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The options, which need no database. */
class JdbcOptionsTest {

  @Test
  void tableNamesAreValidated() {
    assertThat(JdbcOptions.defaults().tableName()).isEqualTo("lease_records");
    assertThat(JdbcOptions.defaults().withTableName("_leases_2").tableName())
        .isEqualTo("_leases_2");
    assertThat(JdbcOptions.defaults().withTableName("t".repeat(57)).tableName()).hasSize(57);
    for (String bad :
        new String[] {
          "", "Leases", "2leases", "leases; drop table x", "public.leases", "lé", "t".repeat(58)
        }) {
      assertThatThrownBy(() -> JdbcOptions.defaults().withTableName(bad))
          .as("table name '%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not allowed");
    }
  }

  @Test
  void reservedWordsAreRefusedRatherThanFailingAtTheFirstStatement() {
    for (String reserved : new String[] {"select", "user", "order", "table", "desc", "key"}) {
      assertThatThrownBy(() -> JdbcOptions.defaults().withTableName(reserved))
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
    assertThat(JdbcOptions.defaults().withTableName("leases").tableName()).isEqualTo("leases");
    assertThat(JdbcOptions.defaults().withTableName("selected").tableName()).isEqualTo("selected");
  }

  @Test
  void theKeyLockLimitIsAtLeastOne() {
    assertThat(JdbcOptions.defaults().keyLockLimit()).isEqualTo(JdbcOptions.DEFAULT_KEY_LOCK_LIMIT);
    JdbcOptions one = JdbcOptions.defaults().withTableName("t").withKeyLockLimit(1);
    assertThat(one.keyLockLimit()).isEqualTo(1);
    assertThat(one.tableName()).isEqualTo("t");
    assertThat(one).isEqualTo(JdbcOptions.defaults().withKeyLockLimit(1).withTableName("t"));
    assertThat(one).isNotEqualTo(JdbcOptions.defaults().withTableName("t"));
    assertThatThrownBy(() -> JdbcOptions.defaults().withKeyLockLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  @SuppressWarnings("NullAway") // passes null where the API forbids it, to see how it is refused
  void aNullTableNameIsRefusedByName() {
    assertThatThrownBy(() -> JdbcOptions.defaults().withTableName(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tableName");
  }
}
