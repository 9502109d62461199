/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.io.PrintStream;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Where the library's {@link System.Logger} records go in the {@code lease} command: one line on
 * stderr, like every other message of the tool ({@code lease: warning: ...}), never a stack trace.
 * Records below {@link System.Logger.Level#INFO} are dropped.
 *
 * <p>Found by {@link java.util.ServiceLoader} as the JVM's {@link System.LoggerFinder}, so that a
 * start of {@code lease} never loads and configures {@code java.util.logging}: that alone took a
 * tenth of the tool's start. Thread-safe: each record is printed with one call on {@link
 * System#err}, which is synchronized.
 */
public final class OneLineLoggerFinder extends System.LoggerFinder {

  private static final System.Logger.Level THRESHOLD = System.Logger.Level.INFO;

  /** Made by {@link java.util.ServiceLoader}. */
  public OneLineLoggerFinder() {}

  @Override
  public System.Logger getLogger(String name, Module module) {
    return new OneLineLogger(name);
  }

  /** Formats one record as the line {@code lease} prints for it, with its line separator. */
  static String line(String level, String message, @Nullable Throwable thrown) {
    return "lease: "
        + level
        + ": "
        + CliErrors.oneLine(message)
        + (thrown == null ? "" : " (" + CliErrors.oneLine(thrown.getMessage()) + ")")
        + System.lineSeparator();
  }

  private static String name(System.Logger.Level level) {
    return level.getName().toLowerCase(Locale.ROOT);
  }

  private static final class OneLineLogger implements System.Logger {

    private final String name;

    OneLineLogger(String name) {
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean isLoggable(Level level) {
      return level != Level.OFF && level.getSeverity() >= THRESHOLD.getSeverity();
    }

    @Override
    public void log(Level level, Supplier<String> message) {
      if (isLoggable(level)) {
        print(line(name(level), message.get(), null));
      }
    }

    @Override
    public void log(Level level, Supplier<String> message, Throwable thrown) {
      if (isLoggable(level)) {
        print(line(name(level), message.get(), thrown));
      }
    }

    @Override
    public void log(
        Level level, @Nullable ResourceBundle bundle, String message, @Nullable Throwable thrown) {
      if (isLoggable(level)) {
        print(line(name(level), localized(bundle, message), thrown));
      }
    }

    @Override
    public void log(
        Level level, @Nullable ResourceBundle bundle, String format, @Nullable Object... params) {
      if (isLoggable(level)) {
        String pattern = localized(bundle, format);
        String message =
            params == null || params.length == 0 ? pattern : MessageFormat.format(pattern, params);
        print(line(name(level), message, null));
      }
    }

    private static String localized(@Nullable ResourceBundle bundle, String key) {
      if (bundle == null) {
        return key;
      }
      try {
        return bundle.getString(key);
      } catch (MissingResourceException e) {
        return key;
      }
    }

    private static void print(String line) {
      PrintStream err = System.err;
      err.print(line);
      err.flush();
    }
  }
}
