/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Renders lease views as JSON for scripts. The field names are part of the tool's interface (see
 * {@code docs/cli.md}): {@code key}, {@code state}, {@code generation}, {@code revision}, {@code
 * holder} ({@code host}, {@code pid}, {@code bootId}, {@code pidNamespace}, {@code processStart},
 * {@code handle}), {@code process}, {@code ttlMillis} (the TTL the holder promised, in milliseconds
 * like {@code observedUnchangedMillis}, so that scripts can compare the two; {@code null} when the
 * record does not say), {@code observedUnchangedMillis} and {@code updatedAt}.
 */
final class JsonRenderer {

  private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  void renderOne(LeaseView view, PrintWriter out) {
    print(node(view), out);
  }

  void renderAbsent(String key, PrintWriter out) {
    ObjectNode absent = mapper.createObjectNode();
    absent.put("key", key);
    absent.put("state", "absent");
    print(absent, out);
  }

  void renderAll(List<LeaseView> views, PrintWriter out) {
    ArrayNode array = mapper.createArrayNode();
    views.forEach(view -> array.add(node(view)));
    print(array, out);
  }

  private ObjectNode node(LeaseView view) {
    LeaseSnapshot snapshot = view.snapshot();
    ObjectNode node = mapper.createObjectNode();
    node.put("key", snapshot.key());
    node.put("state", snapshot.state().name().toLowerCase(Locale.ROOT));
    node.put("generation", snapshot.generation());
    node.put("revision", snapshot.revision());
    ObjectNode holder = node.putObject("holder");
    ProcessIdentity process = snapshot.holder().process();
    holder.put("host", process.host());
    holder.put("pid", process.pid());
    holder.put("bootId", process.bootId());
    holder.put("pidNamespace", process.pidNamespace());
    holder.put("processStart", process.processStart());
    holder.put("handle", snapshot.holder().handleId());
    node.put("process", view.livenessWord());
    Optional<Duration> ttl = LeaseView.known(snapshot.ttl());
    if (ttl.isPresent()) {
      node.put("ttlMillis", ttl.get().toMillis());
    } else {
      node.putNull("ttlMillis");
    }
    node.put("observedUnchangedMillis", view.observedUnchanged().toMillis());
    node.put("updatedAt", snapshot.updatedAt().toString());
    return node;
  }

  private void print(Object tree, PrintWriter out) {
    try {
      out.println(mapper.writeValueAsString(tree));
    } catch (com.fasterxml.jackson.core.JsonProcessingException impossible) {
      throw new IllegalStateException("cannot write a JSON tree", impossible);
    }
    out.flush();
  }
}
