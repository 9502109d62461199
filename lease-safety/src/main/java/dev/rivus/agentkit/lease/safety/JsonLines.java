/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An append-only log of one JSON object per line. Every line goes to the file in one {@code write}
 * call with no user-space buffer, so what was logged before a {@code kill -9} is in the file.
 *
 * <p>Thread-safe: lines from several threads never interleave.
 */
public final class JsonLines implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final FileOutputStream out;

  private JsonLines(Path file, FileOutputStream out) {
    this.file = file;
    this.out = out;
  }

  /**
   * Opens {@code file} for appending, creating it if needed.
   *
   * @param file the log file
   * @return the log
   * @throws UncheckedIOException if the file cannot be opened
   */
  public static JsonLines append(Path file) {
    try {
      return new JsonLines(file, new FileOutputStream(file.toFile(), true));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open log " + file, e);
    }
  }

  /**
   * Starts a line's fields: a map that keeps the order fields are put in.
   *
   * @param firstKey the first field's name
   * @param firstValue the first field's value
   * @return a mutable map
   */
  public static Map<String, Object> fields(String firstKey, Object firstValue) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(firstKey, firstValue);
    return fields;
  }

  /**
   * Writes one line.
   *
   * @param fields the object's fields, in order
   * @throws UncheckedIOException if the line cannot be written
   */
  public void write(Map<String, ?> fields) {
    try {
      byte[] line = (JSON.writeValueAsString(fields) + "\n").getBytes(StandardCharsets.UTF_8);
      synchronized (this) {
        out.write(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to log " + file, e);
    }
  }

  /**
   * Reads every complete line of a log. A line that does not parse (the torn last line of a killed
   * writer) is left out.
   *
   * @param file the log file
   * @return its objects, in file order
   * @throws UncheckedIOException if the file cannot be read
   */
  public static List<JsonNode> read(Path file) {
    List<JsonNode> nodes = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank()) {
          continue;
        }
        try {
          nodes.add(JSON.readTree(line));
        } catch (IOException torn) {
          // a writer killed in the middle of a line: nothing after it was logged either
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read log " + file, e);
    }
    return nodes;
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close log " + file, e);
    }
  }
}
