/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package com.example.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import dev.rivus.agentkit.lease.testsupport.SharedServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The application started twice against PostgreSQL, as two instances of one service are: each
 * report slot runs once, the instance paused (SIGSTOP) past its TTL in the middle of its fenced
 * transaction finds its write refused when it resumes, with nothing of it committed, and the
 * actuator answers on both.
 */
@Tag("cross-process")
class TwoInstancesTest {

  private static final Duration START = Duration.ofSeconds(90);
  private static final Pattern FENCED_WORK_REFUSED =
      Pattern.compile(
          "^lease_fenced_work_seconds_count\\{[^}]*outcome=\"(lost|failed)\"[^}]*} ([0-9.]+)",
          Pattern.MULTILINE);

  private final HttpClient http = HttpClient.newHttpClient();
  private final String schema =
      "example_"
          + Long.toHexString(ThreadLocalRandom.current().nextLong()).toLowerCase(Locale.ROOT);
  private final List<ChildJvm> instances = new ArrayList<>();

  @BeforeEach
  void freshSchema() throws SQLException {
    SharedServer.POSTGRES.requireReachable();
    try (Connection connection = SharedServer.POSTGRES.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + schema);
    }
  }

  @AfterEach
  void dropSchema() throws SQLException {
    instances.forEach(ChildJvm::close);
    try (Connection connection = SharedServer.POSTGRES.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  @Test
  void eachSlotRunsOnceAndAPausedHoldersWriteIsRefused() throws Exception {
    Instance a = start("a");
    Instance b = start("b");
    for (Instance instance : List.of(a, b)) {
      String health = get(instance, "/actuator/health");
      assertThat(health).contains("\"status\":\"UP\"").contains("\"lease\"");
    }
    await("four report slots").atMost(Duration.ofSeconds(60)).until(() -> reportSlots() >= 4);

    // Pause the ledger's holder in the middle of its fenced transaction (its session idle in it).
    Instance paused = pauseTheLedgerHolder(a, b);
    Instance other = paused == a ? b : a;
    // The paused transaction's token is above every committed one; a successor's is above it.
    long committed =
        Long.parseLong(single("SELECT COALESCE(MAX(token), 0) FROM " + schema + ".ledger"));
    await("the other instance's write under a newer token")
        .atMost(Duration.ofSeconds(60))
        .until(() -> lastToken(other.name) > committed);
    paused.jvm.resume();

    await("the resumed instance's refused fenced work")
        .atMost(Duration.ofSeconds(60))
        .until(() -> refusedFencedWork(get(paused, "/actuator/prometheus")) >= 1);

    // In commit order, the ledger's tokens never go backwards: the paused transaction committed
    // nothing after its successor's writes.
    assertThat(tokensInCommitOrder()).isSorted();
    assertThat(duplicateReportSlots()).isZero();
    assertThat(reportSlots()).isGreaterThanOrEqualTo(4);

    assertThat(get(other, "/actuator/leases")).contains("\"leases\"").contains("\"manager\"");
    assertThat(get(other, "/actuator/leases/records/ledger")).contains("\"generation\"");
    assertThat(get(other, "/actuator/prometheus"))
        .contains("lease_acquisitions_total")
        .contains("lease_held")
        .contains("lease_renewal_round_seconds");
  }

  private record Instance(String name, int port, ChildJvm jvm) {}

  private Instance start(String name) throws Exception {
    int port = freePort();
    ChildJvm jvm =
        ChildJvm.builder(SchedulerApplication.class.getName())
            .jvmOptions("-Xmx256m")
            .args(
                List.of(
                    "--server.port=" + port,
                    "--example.instance=" + name,
                    "--spring.datasource.url="
                        + SharedServer.POSTGRES.url()
                        + (SharedServer.POSTGRES.url().contains("?") ? "&" : "?")
                        + "currentSchema="
                        + schema
                        + "&ApplicationName=instance-"
                        + name))
            .start();
    instances.add(jvm);
    jvm.awaitLine("started", line -> line.contains("Started SchedulerApplication"), START);
    return new Instance(name, port, jvm);
  }

  private Instance pauseTheLedgerHolder(Instance a, Instance b) throws Exception {
    for (int attempt = 0; attempt < 20; attempt++) {
      String holder =
          await().atMost(Duration.ofSeconds(30)).until(this::inLedgerTransaction, h -> h != null);
      Instance paused = holder.equals("instance-" + a.name) ? a : b;
      paused.jvm.suspend();
      // Paused before its commit? If the transaction ended just before the stop, try again.
      if (paused.name.equals(stripPrefix(inLedgerTransaction()))) {
        return paused;
      }
      paused.jvm.resume();
    }
    throw new AssertionError("never paused an instance inside its ledger transaction");
  }

  private static String stripPrefix(String applicationName) {
    return applicationName == null ? "" : applicationName.substring("instance-".length());
  }

  /** The instance whose session is idle in a transaction: the ledger job, between its writes. */
  private String inLedgerTransaction() throws SQLException {
    return single(
        "SELECT application_name FROM pg_stat_activity WHERE state = 'idle in transaction'"
            + " AND application_name LIKE 'instance-%' LIMIT 1");
  }

  private long lastToken(String instance) throws SQLException {
    String token =
        single(
            "SELECT COALESCE(MAX(token), 0) FROM "
                + schema
                + ".ledger WHERE instance = '"
                + instance
                + "'");
    return Long.parseLong(token);
  }

  private int reportSlots() throws SQLException {
    return Integer.parseInt(single("SELECT COUNT(DISTINCT slot) FROM " + schema + ".report_runs"));
  }

  private int duplicateReportSlots() throws SQLException {
    return Integer.parseInt(
        single(
            "SELECT COUNT(*) FROM (SELECT slot FROM "
                + schema
                + ".report_runs GROUP BY slot HAVING COUNT(*) > 1) AS twice"));
  }

  private List<Long> tokensInCommitOrder() throws SQLException {
    List<Long> tokens = new ArrayList<>();
    try (Connection connection = SharedServer.POSTGRES.connect();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT token FROM " + schema + ".ledger ORDER BY id")) {
      while (rows.next()) {
        tokens.add(rows.getLong(1));
      }
    }
    return tokens;
  }

  private static String single(String query) throws SQLException {
    try (Connection connection = SharedServer.POSTGRES.connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(query)) {
      return rows.next() ? rows.getString(1) : null;
    }
  }

  private static double refusedFencedWork(String prometheus) {
    double refused = 0;
    Matcher matcher = FENCED_WORK_REFUSED.matcher(prometheus);
    while (matcher.find()) {
      refused += Double.parseDouble(matcher.group(2));
    }
    return refused;
  }

  private String get(Instance instance, String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + instance.port + path))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET %s on %s", path, instance.name).isEqualTo(200);
    return response.body();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
