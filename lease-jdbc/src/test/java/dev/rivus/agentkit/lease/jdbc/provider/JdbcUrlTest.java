/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JdbcUrlTest {

  @Test
  void aUrlWithoutAUserPartGoesToTheDriverAsItIs() {
    String text = "jdbc:postgresql://db.example:5432/leases?user=app&password=hunter2&ssl=true";

    JdbcUrl url = JdbcUrl.parse(text, "--jdbc");

    assertThat(url.product()).isEqualTo("PostgreSQL");
    assertThat(url.forDriver()).isEqualTo(text);
    assertThat(url.user()).isNull();
    assertThat(url.password()).isNull();
    assertThat(JdbcUrl.parse("jdbc:mariadb://db/leases", "--jdbc").product()).isEqualTo("MariaDB");
  }

  @Test
  void theUserPartIsTakenOutOfTheUrlAndDecoded() {
    JdbcUrl url = JdbcUrl.parse("jdbc:postgresql://al%40ice:p%3As+s%25@db:5432/leases?ssl=1", "x");

    assertThat(url.user()).isEqualTo("al@ice");
    assertThat(url.password()).as("'+' is not a space in a user part").isEqualTo("p:s+s%");
    assertThat(url.forDriver()).isEqualTo("jdbc:postgresql://db:5432/leases?ssl=1");
  }

  @Test
  void aPasswordWithARawSlashOrAtSignIsFoundWhole() {
    JdbcUrl url = JdbcUrl.parse("jdbc:mariadb://root:a/b@c@db/leases?x=@", "x");

    assertThat(url.user()).isEqualTo("root");
    assertThat(url.password()).isEqualTo("a/b@c");
    assertThat(url.forDriver()).isEqualTo("jdbc:mariadb://db/leases?x=@");
    assertThat(url.redacted()).isEqualTo("jdbc:mariadb://root:***@db/leases?x=@");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://h/d?user=u&password=p1   | jdbc:postgresql://h/d?user=u&password=***",
        "jdbc:postgresql://h/d?PASSWORD=p1&ssl=true | jdbc:postgresql://h/d?PASSWORD=***&ssl=true",
        "jdbc:postgresql://h/d?sslpassword=p1&a=b   | jdbc:postgresql://h/d?sslpassword=***&a=b",
        "jdbc:mariadb://h/d?trustStorePassword=p1   | jdbc:mariadb://h/d?trustStorePassword=***",
        "jdbc:mariadb://h/d?pwd=p1&token=p2&x       | jdbc:mariadb://h/d?pwd=***&token=***&x",
        "jdbc:mariadb://u:p1@h/d?password=p2        | jdbc:mariadb://u:***@h/d?password=***",
        "jdbc:mariadb://u@h/d                       | jdbc:mariadb://u@h/d",
        "jdbc:oracle:thin:u/p1@h:1521:x             | jdbc:oracle:thin:u/p1@h:1521:x",
        "not a url?password=p1                      | not a url?password=***",
      })
  void redactionMasksEveryPasswordItKnowsAndKeepsTheRest(String text, String redacted) {
    assertThat(JdbcUrl.redact(text)).isEqualTo(redacted);
  }

  @Test
  void theSecretsOfAUrlAreListedAsWrittenAndDecoded() {
    assertThat(JdbcUrl.secretsIn("jdbc:postgresql://u:a%2Fb@h/d?password=c+d&sslpassword=&x=y"))
        .containsExactlyInAnyOrder("a%2Fb", "a/b", "c+d", "c d");
    assertThat(JdbcUrl.secretsIn("jdbc:postgresql://h/d?user=u")).isEmpty();
  }

  @Test
  void anotherDatabasesUrlIsAConfigurationErrorThatShowsOnlyItsScheme() {
    assertThatThrownBy(() -> JdbcUrl.parse("jdbc:oracle:thin:scott/tiger@h:1521:x", "--jdbc"))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessageEndingWith("it starts with 'jdbc:oracle:'")
        .hasMessageNotContaining("tiger");
    assertThatThrownBy(() -> JdbcUrl.parse("postgres://u:tiger@h/d", "LEASE_JDBC_URL"))
        .hasMessageStartingWith("LEASE_JDBC_URL must be a PostgreSQL or MariaDB URL")
        .hasMessageEndingWith("it starts with 'postgres:'");
  }

  @Test
  void aUserPartThatIsNotPercentEncodingIsAConfigurationErrorThatShowsNoPassword() {
    assertThatThrownBy(() -> JdbcUrl.parse("jdbc:postgresql://u:100%tiger@h/d", "--jdbc"))
        .isInstanceOf(LeaseConfigInvalid.class)
        .hasMessage(
            "--jdbc has a user or password that is not valid percent-encoding (write % as %25):"
                + " jdbc:postgresql://u:***@h/d");
  }

  @Test
  void itsStringIsTheRedactedUrl() {
    JdbcUrl url = JdbcUrl.parse("jdbc:postgresql://u:tiger@h/d?password=lion", "--jdbc");

    assertThat(url).hasToString("jdbc:postgresql://u:***@h/d?password=***");
    assertThat(url).isEqualTo(JdbcUrl.parse(url.forDriver().replace("//", "//u:tiger@"), "x"));
  }
}
