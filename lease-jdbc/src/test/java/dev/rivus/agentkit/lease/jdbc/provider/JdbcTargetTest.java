/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a {@code jdbc:} request names, before anything is connected: the URL, the table, and the
 * credentials, of which the URL's own win over the settings; and the mistakes refused at once.
 */
class JdbcTargetTest {

  private static final String URL = "jdbc:postgresql://db.example:5432/leases";

  private static StoreRequest.Builder request(String url) {
    return StoreRequest.builder(url)
        .setting("user", "env-user")
        .setting("password", "env-secret")
        .spelling(StoreRequest.LOCATION, "--jdbc");
  }

  @Test
  void credentialsComeFromTheUrlsUserPartElseFromTheSettings() {
    Stream<JdbcTarget> targets =
        Stream.of(
                URL,
                "jdbc:mariadb://al%40ice:p%3As%2Bs@db/leases?ssl=true",
                "jdbc:mariadb://bob@db/leases")
            .map(url -> JdbcTarget.of(request(url).build()));

    assertThat(targets)
        .extracting(JdbcTarget::user, JdbcTarget::password, target -> target.url().forDriver())
        .containsExactly(
            tuple("env-user", "env-secret", URL),
            tuple("al@ice", "p:s+s", "jdbc:mariadb://db/leases?ssl=true"),
            tuple("bob", "env-secret", "jdbc:mariadb://db/leases"));
  }

  @Test
  void theTableAndWhetherItMayBeCreatedAreSettingsAndTheStringShowsNoSecret() {
    JdbcTarget target =
        JdbcTarget.of(
            request("jdbc:mariadb://al%40ice:p%3As%2Bs@db/leases?password=x")
                .setting("table", "t")
                .setting("create-table", "false")
                .build());
    JdbcTarget plain = JdbcTarget.of(StoreRequest.builder(URL).build());

    assertThat(target.table()).isEqualTo("t");
    assertThat(target.createTable()).isFalse();
    assertThat(plain.table()).isNull();
    assertThat(plain.createTable()).isTrue();
    assertThat(plain.user()).isNull();
    assertThat(target.toString())
        .contains("al%40ice:***@db", "password=***")
        .doesNotContain("p:s+s", "p%3As", "env-secret");
  }

  @Test
  void aUrlOfAnotherSchemeGoesToThisStoreWhenTheCallerChoseItAndIsRefusedInItsWords() {
    StoreRequest chosen =
        StoreRequest.builder("jdbc", "postgres://u:tiger@h/d")
            .spelling(StoreRequest.LOCATION, "LEASE_JDBC_URL")
            .build();

    assertThatThrownBy(() -> JdbcTarget.of(chosen))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageStartingWith("LEASE_JDBC_URL must be a PostgreSQL or MariaDB URL")
        .hasMessageEndingWith("it starts with 'postgres:'");
  }

  @Test
  void anUnknownSettingOrACreateTableThatIsNoBooleanIsRefused() {
    assertThatThrownBy(() -> JdbcTarget.of(request(URL).setting("tabel", "t").build()))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage(
            "unknown setting 'tabel' for a jdbc: store (known: create-table, password, table,"
                + " user)");
    assertThatThrownBy(
            () ->
                JdbcTarget.of(
                    request(URL)
                        .setting("create-table", "no")
                        .spelling("create-table", "--create")
                        .build()))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage("--create must be true or false, was 'no'");
  }

  @Test
  void aTableNameTheRepositoryRefusesIsRefusedBeforeAnythingIsConnected() {
    // Nothing listens on port 1: a connection would fail otherwise.
    StoreRequest request =
        StoreRequest.builder("jdbc:postgresql://127.0.0.1:1/none")
            .setting("table", "select")
            .spelling("table", "--jdbc-table")
            .build();

    assertThatThrownBy(() -> new JdbcStoreProvider().open(request))
        .isInstanceOfSatisfying(
            LeaseConfigInvalid.class, e -> assertThat(e.setting()).isEqualTo("table"))
        .hasMessageStartingWith("--jdbc-table: table name 'select' is not allowed");
  }
}
