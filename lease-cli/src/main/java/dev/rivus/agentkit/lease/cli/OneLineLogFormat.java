/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

import java.util.List;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Prints the {@code java.util.logging} records of the libraries {@code lease} uses (sqlite-jdbc and
 * the PostgreSQL driver log through it, and SLF4J is bound to it) as one line on stderr, like every
 * other message of the tool: {@code lease: severe: ...}, never a stack trace. The library's own
 * records go through {@link OneLineLoggerFinder} and never start {@code java.util.logging}. The
 * pool's and the MariaDB driver's records are dropped: their failures reach the tool as exceptions,
 * which it reports itself, and the rest is chatter.
 *
 * <p>{@link #configureOnFirstUse()} names {@link Configuration} as the logging configuration class,
 * so that nothing is loaded or configured until a library first logs. Left alone when the user
 * configured logging with {@code java.util.logging.config.file} or {@code config.class}.
 */
final class OneLineLogFormat extends Formatter {

  /** The loggers whose records are dropped, by the start of their names. */
  static final List<String> SILENCED = List.of("com.zaxxer.hikari", "org.mariadb.jdbc");

  private static final String CONFIG_FILE = "java.util.logging.config.file";
  private static final String CONFIG_CLASS = "java.util.logging.config.class";

  static void configureOnFirstUse() {
    if (System.getProperty(CONFIG_FILE) == null && System.getProperty(CONFIG_CLASS) == null) {
      System.setProperty(CONFIG_CLASS, Configuration.class.getName());
    }
  }

  @Override
  public String format(LogRecord record) {
    Throwable thrown = record.getThrown();
    return OneLineLoggerFinder.line(
        record.getLevel().getName().toLowerCase(Locale.ROOT), formatMessage(record), thrown);
  }

  /** Whether the records of the logger {@code name} are dropped (see {@link #SILENCED}). */
  static boolean silenced(@Nullable String name) {
    if (name == null) {
      return false;
    }
    for (String silenced : SILENCED) {
      if (name.equals(silenced) || name.startsWith(silenced + ".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The logging configuration of {@code lease}: INFO and above, one line each, on stderr. Made by
   * {@link java.util.logging.LogManager} when it starts; public for that reason only.
   */
  public static final class Configuration {

    /** Called by {@link java.util.logging.LogManager}. */
    public Configuration() {
      Logger root = Logger.getLogger("");
      for (Handler handler : root.getHandlers()) {
        root.removeHandler(handler);
      }
      ConsoleHandler console = new ConsoleHandler();
      console.setLevel(Level.INFO);
      console.setFormatter(new OneLineLogFormat());
      console.setFilter(record -> !silenced(record.getLoggerName()));
      root.setLevel(Level.INFO);
      root.addHandler(console);
    }
  }
}
