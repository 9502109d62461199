/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.resource;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rivus.agentkit.lease.safety.JsonLines;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProtectedResourceTest {

  @TempDir Path dir;

  private List<JsonNode> run(boolean fencing, String... requests) {
    Path file = dir.resolve("resource.jsonl");
    try (JsonLines log = JsonLines.append(file)) {
      ProtectedResource resource = new ProtectedResource(log, fencing);
      for (String request : requests) {
        resource.handle(request);
      }
    }
    return JsonLines.read(file);
  }

  @Test
  void aWriteWithTheHighestTokenIsAcceptedAndReadBack() {
    try (JsonLines log = JsonLines.append(dir.resolve("resource.jsonl"))) {
      ProtectedResource resource = new ProtectedResource(log, true);

      assertThat(resource.handle("ENTER k1 5 w1.1")).isEqualTo("OK");
      assertThat(resource.handle("READ k1 5 w1.1")).isEqualTo("OK 0");
      assertThat(resource.handle("WRITE k1 5 w1.1 1")).isEqualTo("ACCEPTED");
      assertThat(resource.handle("READ k1 5 w1.1")).isEqualTo("OK 1");
      assertThat(resource.handle("EXIT k1 5 w1.1")).isEqualTo("OK");
    }
  }

  @Test
  void withFencingAWriteBelowTheHighestTokenSeenIsRejected() {
    try (JsonLines log = JsonLines.append(dir.resolve("resource.jsonl"))) {
      ProtectedResource resource = new ProtectedResource(log, true);
      resource.handle("READ k1 7 w2.1");

      assertThat(resource.handle("WRITE k1 6 w1.1 1")).isEqualTo("REJECTED 7");
      assertThat(resource.handle("WRITE k2 6 w1.1 1")).isEqualTo("ACCEPTED");
    }
  }

  @Test
  void withoutFencingAStaleWriteIsAccepted() {
    List<JsonNode> log = run(false, "READ k1 7 w2.1", "WRITE k1 6 w1.1 1");

    assertThat(log.get(1).path("ok").asBoolean()).isTrue();
    assertThat(log.get(1).path("highest").asLong()).isEqualTo(7);
  }

  @Test
  void everyRequestIsLoggedInOrderWithASequenceNumber() {
    List<JsonNode> log =
        run(true, "ENTER k1 5 w1.1", "WRITE k1 5 w1.1 1", "EXIT k1 5 w1.1", "FINISH");

    assertThat(log).extracting(e -> e.path("seq").asLong()).containsExactly(1L, 2L, 3L, 4L);
    assertThat(log)
        .extracting(e -> e.path("op").asText())
        .containsExactly("ENTER", "WRITE", "EXIT", "FINAL");
    assertThat(log.get(3).path("value").asLong()).isEqualTo(1);
    assertThat(log.get(3).path("accepted").asLong()).isEqualTo(1);
  }

  @Test
  void deadClosesAWorkersSectionsAndItsLaterRequestsChangeNothing() {
    try (JsonLines log = JsonLines.append(dir.resolve("resource.jsonl"))) {
      ProtectedResource resource = new ProtectedResource(log, false);
      resource.handle("ENTER k1 5 w1.1");
      resource.handle("ENTER k2 9 w2.1");
      assertThat(resource.handle("OPEN")).isEqualTo("OK w1.1 w2.1");

      assertThat(resource.handle("DEAD w1.1")).isEqualTo("OK 1");
      assertThat(resource.handle("OPEN")).isEqualTo("OK w2.1");
      assertThat(resource.handle("WRITE k1 5 w1.1 1")).isEqualTo("DEAD");
      assertThat(resource.handle("READ k1 6 w3.1")).isEqualTo("OK 0");
    }
    List<JsonNode> log = JsonLines.read(dir.resolve("resource.jsonl"));
    assertThat(log.get(3).path("late").asBoolean()).isTrue();
  }

  @Test
  void aMalformedRequestIsAnsweredWithAnError() {
    try (JsonLines log = JsonLines.append(dir.resolve("resource.jsonl"))) {
      ProtectedResource resource = new ProtectedResource(log, true);

      assertThat(resource.handle("WRITE k1 x w1.1 1")).startsWith("ERR ");
      assertThat(resource.handle("JUMP")).startsWith("ERR unknown request");
    }
  }

  @Test
  void theServerAnswersOverLoopbackTcp() {
    try (JsonLines log = JsonLines.append(dir.resolve("resource.jsonl"));
        ResourceServer server = ResourceServer.start(new ProtectedResource(log, true));
        ResourceClient first = ResourceClient.connect(server.port());
        ResourceClient second = ResourceClient.connect(server.port())) {
      assertThat(first.call("WRITE k1 3 w1.1 1")).isEqualTo("ACCEPTED");
      assertThat(second.call("WRITE k1 2 w2.1 2")).isEqualTo("REJECTED 3");
      assertThat(second.call("READ k1 4 w2.1")).isEqualTo("OK 1");
    }
  }
}
