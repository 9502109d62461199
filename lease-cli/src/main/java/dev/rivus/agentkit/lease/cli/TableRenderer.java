/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import java.io.PrintWriter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders lease views as a table for people: one line per record, columns padded to fit.
 *
 * <p>Columns are padded by display width ({@link DisplayWidth}), so they line up for keys in any
 * script. Columns: KEY, STATE (held or released), GEN (the generation, the fencing token), REV (the
 * revision), HOST and PID of the holder (the last holder of a released record), PROCESS (alive,
 * dead or unknown as judged from here; {@code -} when released), TTL (the TTL the holder promised
 * in the record; {@code unknown} for a record written before TTLs were recorded), UNCHANGED (how
 * long this command saw the record unchanged) and UPDATED (the writer's wall clock, for people
 * only).
 */
final class TableRenderer {

  static final List<String> HEADER =
      List.of(
          "KEY", "STATE", "GEN", "REV", "HOST", "PID", "PROCESS", "TTL", "UNCHANGED", "UPDATED");

  void render(List<LeaseView> views, PrintWriter out) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    for (LeaseView view : views) {
      rows.add(cells(view));
    }
    int[] widths = new int[HEADER.size()];
    for (List<String> row : rows) {
      for (int column = 0; column < widths.length; column++) {
        widths[column] = Math.max(widths[column], DisplayWidth.of(row.get(column)));
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int column = 0; column < widths.length; column++) {
        String cell = row.get(column);
        line.append(cell);
        if (column < widths.length - 1) {
          line.append(" ".repeat(widths[column] - DisplayWidth.of(cell) + 2));
        }
      }
      out.println(line);
    }
    out.flush();
  }

  private static List<String> cells(LeaseView view) {
    LeaseSnapshot snapshot = view.snapshot();
    return List.of(
        printable(snapshot.key()),
        snapshot.state().name().toLowerCase(Locale.ROOT),
        Long.toString(snapshot.generation()),
        Long.toString(snapshot.revision()),
        printable(snapshot.holder().process().host()),
        Long.toString(snapshot.holder().process().pid()),
        view.livenessWord() == null ? "-" : view.livenessWord(),
        view.ttlWord(),
        DurationConverter.format(view.observedUnchanged()),
        snapshot.updatedAt().truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /** Keys may hold any character; a control character or a space must not break the table. */
  static String printable(String text) {
    StringBuilder escaped = new StringBuilder(text.length());
    text.codePoints()
        .forEach(
            point -> {
              if (Character.isISOControl(point) || Character.isWhitespace(point) || point == '\\') {
                escaped.append(String.format(Locale.ROOT, "\\u%04x", point));
              } else {
                escaped.appendCodePoint(point);
              }
            });
    return escaped.toString();
  }
}
