/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rivus.agentkit.lease.LeaseRepositoryFailure;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CorruptRecordTest {

  private static final String KEY = "task:7";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;
  private FileLeaseRepository repository;
  private Path record;
  private String valid;

  @BeforeEach
  void storeAValidRecord() throws IOException {
    repository = FileLeaseRepository.open(directory);
    repository.save(Samples.write(KEY, 12, 30));
    record = new RecordNames(repository.directory(), KEY).record();
    valid = Files.readString(record);
  }

  static Stream<Arguments> damages() {
    return Stream.of(
        damage("an empty file", json -> ""),
        damage("a truncated file", json -> json.substring(0, json.length() / 2)),
        damage(
            "a file cut before its closing brace",
            json -> json.substring(0, json.lastIndexOf('}'))),
        damage("binary garbage", json -> "\u0000\u0001\u00ff garbage"),
        damage("a JSON array", json -> "[1, 2, 3]"),
        damage("JSON null", json -> "null"),
        damage("trailing garbage after the object", json -> json + " {}"),
        damage("a duplicated field", json -> json.replaceFirst("\\{", "{\"generation\": 99,")),
        edit("a missing generation", node -> node.without("generation")),
        edit("a missing holder", node -> node.without("holder")),
        edit(
            "a missing nullable field",
            node -> {
              ((ObjectNode) node.get("holder").get("process")).remove("bootId");
              return node;
            }),
        edit("a generation written as a string", node -> node.put("generation", "12")),
        edit("a fractional revision", node -> node.put("revision", 30.5)),
        edit(
            "a revision beyond a long",
            node -> node.put("revision", new java.math.BigInteger("99999999999999999999"))),
        edit("a negative generation", node -> node.put("generation", -1)),
        edit(
            "a pid written as a string",
            node -> {
              ((ObjectNode) node.get("holder").get("process")).put("pid", "4121");
              return node;
            }),
        edit("a holder that is a string", node -> node.put("holder", "someone")),
        edit("an unknown state", node -> node.put("state", "STOLEN")),
        edit("an unreadable updatedAt", node -> node.put("updatedAt", "yesterday")),
        edit("a missing ttl", node -> node.without("ttl")),
        edit("an unreadable ttl", node -> node.put("ttl", "a minute")),
        edit("a ttl of zero", node -> node.put("ttl", "PT0S")),
        edit("a missing format", node -> node.without("format")),
        edit("format 0", node -> node.put("format", 0)),
        edit("the record of another key", node -> node.put("key", "task:8")));
  }

  @Test
  void aRecordOfFormatOneIsReadWithTheLongestTtlSinceItsHoldersTtlIsUnknown() throws IOException {
    ObjectNode formatOne = ((ObjectNode) JSON.readTree(valid)).put("format", 1);
    formatOne.remove("ttl");
    Files.writeString(record, formatOne.toString());

    LeaseSnapshot read = repository.load(KEY).orElseThrow();

    assertThat(read.ttl()).isEqualTo(dev.rivus.agentkit.lease.LeaseConfig.MAX_DURATION);
    assertThat(read.generation()).isEqualTo(12);
    repository.save(read.renewal(Samples.TIME)); // its holder, still running, renews it
    assertThat(JSON.readTree(record.toFile()).get("format").asInt())
        .as("format of the record rewritten")
        .isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("damages")
  void loadReportsADamagedRecordNamingItsFile(UnaryOperator<String> damage) throws IOException {
    Files.writeString(record, damage.apply(valid), StandardCharsets.UTF_8);

    assertThatThrownBy(() -> repository.load(KEY))
        .isInstanceOfSatisfying(
            LeaseRepositoryFailure.class, failure -> assertThat(failure.key()).contains(KEY))
        .hasMessageContaining(record.toString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("damages")
  void saveRefusesToOverwriteADamagedRecord(UnaryOperator<String> damage) throws IOException {
    String damaged = damage.apply(valid);
    Files.writeString(record, damaged, StandardCharsets.UTF_8);

    assertThatThrownBy(() -> repository.save(Samples.firstWrite(KEY, "h-1")))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(record.toString());
    assertThatThrownBy(() -> repository.save(Samples.snapshot(KEY, 12, 30).renewal(Samples.TIME)))
        .isInstanceOf(LeaseRepositoryFailure.class);
    assertThat(Files.readString(record, StandardCharsets.UTF_8)).isEqualTo(damaged);
  }

  @Test
  void aRecordOfANewerFormatIsReportedAsSuchAndLeftAlone() throws IOException {
    String newer = ((ObjectNode) JSON.readTree(valid)).put("format", 3).toString();
    Files.writeString(record, newer);

    assertThatThrownBy(() -> repository.load(KEY))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(record.toString())
        .hasMessageContaining("newer version")
        .hasMessageContaining("format 3");
    assertThatThrownBy(() -> repository.save(Samples.snapshot(KEY, 12, 30).renewal(Samples.TIME)))
        .isInstanceOf(LeaseRepositoryFailure.class);
    assertThat(Files.readString(record)).isEqualTo(newer);
  }

  @Test
  void aRecordCopiedFromAnotherKeyIsReportedWithBothKeys() throws IOException {
    repository.save(Samples.firstWrite("task:8", "h-1"));
    Files.copy(
        new RecordNames(repository.directory(), "task:8").record(),
        record,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);

    assertThatThrownBy(() -> repository.load(KEY))
        .isInstanceOf(LeaseRepositoryFailure.class)
        .hasMessageContaining(record.toString())
        .hasMessageContaining("'task:8'")
        .hasMessageContaining("'" + KEY + "'");
  }

  @Test
  void unknownExtraFieldsOfTheSameFormatAreIgnored() throws IOException {
    Files.writeString(
        record, ((ObjectNode) JSON.readTree(valid)).put("comment", "by hand").toString());

    assertThat(repository.load(KEY)).map(LeaseSnapshot::generation).contains(12L);
  }

  private static Arguments damage(String name, UnaryOperator<String> damage) {
    return Arguments.of(Named.of(name, damage));
  }

  private static Arguments edit(String name, UnaryOperator<ObjectNode> edit) {
    UnaryOperator<String> damage =
        json -> {
          try {
            return edit.apply((ObjectNode) JSON.readTree(json)).toString();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        };
    return damage(name, damage);
  }
}
