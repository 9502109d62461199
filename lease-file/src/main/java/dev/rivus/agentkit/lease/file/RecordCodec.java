/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseConfig;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * Turns a snapshot into the JSON of a record file and back, strictly: a record that is empty,
 * truncated, not JSON, missing a field, holding a field of the wrong type, written for another key
 * or by a newer format is rejected with a {@link LeaseRepositoryFailure} naming the file. A
 * generation is never guessed or reset. Thread-safe.
 *
 * <pre>{@code
 * {"format":2, "key":"task:42", "generation":3, "revision":17, "state":"HELD",
 *  "holder":{"process":{"host":"build-7", "bootId":"…", "pidNamespace":"pid:[4026531836]",
 *                       "pid":4121, "processStart":"983345"}, "handleId":"…"},
 *  "ttl":"PT1M", "updatedAt":"2025-01-31T10:15:30.123Z"}
 * }</pre>
 *
 * <p>Format 2 added {@code ttl}, the TTL the holder promised (an ISO-8601 duration). A format 1
 * record, written before TTLs were recorded, is read with the longest TTL a holder may promise
 * ({@link LeaseConfig#MAX_DURATION}): its observers wait for its holder to be seen gone rather than
 * guess a TTL shorter than the one it renews within.
 */
final class RecordCodec {

  /** The record format this version writes, and the newest it reads. */
  static final int FORMAT = 2;

  /** The first format that records the holder's TTL. */
  private static final int FIRST_FORMAT_WITH_TTL = 2;

  private final JsonMapper mapper =
      JsonMapper.builder()
          // Keys may hold any character, even an unpaired surrogate; escaping keeps them all exact.
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();
  private final ObjectWriter writer = mapper.writerWithDefaultPrettyPrinter();

  byte[] encode(LeaseSnapshot snapshot) {
    ProcessIdentity process = snapshot.holder().process();
    ObjectNode root = mapper.createObjectNode();
    root.put("format", FORMAT);
    root.put("key", snapshot.key());
    root.put("generation", snapshot.generation());
    root.put("revision", snapshot.revision());
    root.put("state", snapshot.state().name());
    ObjectNode holder = root.putObject("holder");
    ObjectNode processNode = holder.putObject("process");
    processNode.put("host", process.host());
    processNode.put("bootId", process.bootId());
    processNode.put("pidNamespace", process.pidNamespace());
    processNode.put("pid", process.pid());
    processNode.put("processStart", process.processStart());
    holder.put("handleId", snapshot.holder().handleId());
    root.put("ttl", snapshot.ttl().toString());
    root.put("updatedAt", snapshot.updatedAt().toString());
    try {
      return writer.writeValueAsBytes(root);
    } catch (JsonProcessingException e) {
      throw new LeaseRepositoryFailure(
          snapshot.key(), "cannot encode lease '" + snapshot.key() + "' as JSON: " + e, e);
    }
  }

  /** Decodes a record found by listing the directory, whose key is not known beforehand. */
  LeaseSnapshot decodeListed(Path file, byte[] bytes) {
    String storedKey;
    try {
      JsonNode root = bytes.length == 0 ? null : mapper.readTree(bytes);
      JsonNode key = root == null ? null : root.get("key");
      storedKey = key != null && key.isTextual() ? key.asText() : null;
    } catch (IOException e) {
      storedKey = null;
    }
    if (storedKey == null || storedKey.isEmpty()) {
      throw new LeaseRepositoryFailure(
          null, "lease record " + file + " is corrupt: it does not name its key", null);
    }
    return decode(storedKey, file, bytes);
  }

  LeaseSnapshot decode(String key, Path file, byte[] bytes) {
    Reader reader = new Reader(key, file);
    if (bytes.length == 0) {
      throw reader.corrupt("the file is empty", null);
    }
    JsonNode root;
    try {
      root = mapper.readTree(bytes);
    } catch (IOException e) {
      String detail =
          e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.toString();
      throw reader.corrupt("it is not complete, valid JSON (" + detail + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw reader.corrupt("it does not hold a JSON object", null);
    }
    long format = reader.number(root, "format");
    if (format > FORMAT) {
      throw new LeaseRepositoryFailure(
          key,
          "lease record "
              + file
              + " was written in format "
              + format
              + " by a newer version of the library; this version reads format "
              + FORMAT
              + " and older",
          null);
    }
    if (format < 1) {
      throw reader.corrupt("'format' must be 1 or more, was " + format, null);
    }
    return reader.snapshot(root, format >= FIRST_FORMAT_WITH_TTL);
  }

  /** Reads the fields of one record file, naming the file and the field in every complaint. */
  private static final class Reader {
    private final String key;
    private final Path file;

    Reader(String key, Path file) {
      this.key = key;
      this.file = file;
    }

    LeaseSnapshot snapshot(JsonNode root, boolean hasTtl) {
      String storedKey = text(root, "key");
      if (!storedKey.equals(key)) {
        throw new LeaseRepositoryFailure(
            key,
            "lease record "
                + file
                + " belongs to key '"
                + storedKey
                + "', not to '"
                + key
                + "'; it was copied or renamed by hand",
            null);
      }
      JsonNode holder = object(root, "holder");
      JsonNode process = object(holder, "process");
      try {
        return new LeaseSnapshot(
            storedKey,
            number(root, "generation"),
            number(root, "revision"),
            state(root),
            new HolderIdentity(
                new ProcessIdentity(
                    text(process, "host"),
                    optionalText(process, "bootId"),
                    optionalText(process, "pidNamespace"),
                    number(process, "pid"),
                    optionalText(process, "processStart")),
                text(holder, "handleId")),
            hasTtl ? ttl(root) : LeaseConfig.MAX_DURATION,
            instant(root));
      } catch (IllegalArgumentException e) {
        throw corrupt(e.getMessage(), e);
      }
    }

    private LeaseState state(JsonNode root) {
      String state = text(root, "state");
      try {
        return LeaseState.valueOf(state);
      } catch (IllegalArgumentException e) {
        throw corrupt("'state' must be HELD or RELEASED, was '" + state + "'", e);
      }
    }

    private Duration ttl(JsonNode root) {
      String ttl = text(root, "ttl");
      Duration parsed;
      try {
        parsed = Duration.parse(ttl);
      } catch (DateTimeParseException e) {
        throw corrupt("'ttl' is not an ISO-8601 duration: '" + ttl + "'", e);
      }
      if (parsed.isNegative() || parsed.isZero()) {
        throw corrupt("'ttl' must be positive, was '" + ttl + "'", null);
      }
      return parsed;
    }

    private Instant instant(JsonNode root) {
      String updatedAt = text(root, "updatedAt");
      try {
        return Instant.parse(updatedAt);
      } catch (DateTimeParseException e) {
        throw corrupt("'updatedAt' is not an ISO-8601 instant: '" + updatedAt + "'", e);
      }
    }

    long number(JsonNode parent, String name) {
      JsonNode node = field(parent, name);
      if (!node.isIntegralNumber() || !node.canConvertToLong()) {
        throw corrupt("'" + name + "' must be a whole number, was " + node, null);
      }
      return node.longValue();
    }

    private String text(JsonNode parent, String name) {
      JsonNode node = field(parent, name);
      if (!node.isTextual()) {
        throw corrupt("'" + name + "' must be a string, was " + node, null);
      }
      return node.textValue();
    }

    private @Nullable String optionalText(JsonNode parent, String name) {
      return field(parent, name).isNull() ? null : text(parent, name);
    }

    private JsonNode object(JsonNode parent, String name) {
      JsonNode node = field(parent, name);
      if (!node.isObject()) {
        throw corrupt("'" + name + "' must be an object, was " + node, null);
      }
      return node;
    }

    private JsonNode field(JsonNode parent, String name) {
      JsonNode node = parent.get(name);
      if (node == null) {
        throw corrupt("field '" + name + "' is missing", null);
      }
      return node;
    }

    LeaseRepositoryFailure corrupt(@Nullable String detail, @Nullable Throwable cause) {
      return new LeaseRepositoryFailure(
          key,
          "corrupt lease record "
              + file
              + ": "
              + detail
              + ". The record was left as it is; restore it from a backup, or delete it only if"
              + " no holder of this lease can still be running (its generation would restart)",
          cause);
    }
  }
}
