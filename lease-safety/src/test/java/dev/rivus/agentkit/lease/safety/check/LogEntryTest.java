/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The typed lines the checker reads: a field a line lacks reads as Jackson's {@code path(name)}
 * read it before them, 0, false or the empty string, and what a line has reads as it is written.
 */
class LogEntryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode line(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void aFieldALineLacksReadsAsZeroFalseOrEmpty() throws Exception {
    assertThat(ResourceEntry.of(line("{}")))
        .isEqualTo(new ResourceEntry(0, 0, "", "", 0, false, "", false, false, 0, 0));
    assertThat(WorkerEntry.of(line("{}")))
        .isEqualTo(
            new WorkerEntry(0, "", "", "", 0, "", "", "", "", "", 0, 0, false, "", "", "", 0));
    assertThat(DriverEntry.of(line("{}")))
        .isEqualTo(new DriverEntry(0, "", "", false, "", "", "", false, 0, "", "", "", 0, 0, 0));
  }

  @Test
  void eachLogsFieldsReadAsTheirWritersWroteThem() throws Exception {
    ResourceEntry write =
        ResourceEntry.of(
            line(
                "{\"seq\":7,\"t\":123,\"op\":\"WRITE\",\"key\":\"k1\",\"token\":10,\"w\":\"w1.1\","
                    + "\"value\":3,\"ok\":true,\"highest\":10}"));
    WorkerEntry lost =
        WorkerEntry.of(
            line(
                "{\"t\":5,\"w\":\"w2.1\",\"ev\":\"fenced_lost\",\"key\":\"k2\",\"token\":11,"
                    + "\"reason\":\"KEY_LOCK_LOST\"}"));
    DriverEntry kill =
        DriverEntry.of(
            line(
                "{\"t\":9,\"fault\":\"db_kill\",\"w\":\"w2.1\",\"sessions\":[4242,4243],"
                    + "\"error\":\"refused\"}"));

    assertThat(write)
        .isEqualTo(new ResourceEntry(7, 123, "WRITE", "k1", 10, true, "w1.1", false, true, 3, 0));
    assertThat(lost.lease()).isEqualTo("w2.1/k2/11");
    assertThat(lost.reason()).isEqualTo("KEY_LOCK_LOST");
    assertThat(kill.isFault()).isTrue();
    assertThat(kill.hasError()).isTrue();
    assertThat(kill.sessions()).isEqualTo(2);
    assertThat(kill.note()).isEmpty();
  }
}
