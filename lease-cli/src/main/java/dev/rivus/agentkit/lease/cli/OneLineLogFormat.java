package dev.rivus.agentkit.lease.cli;

import java.util.Locale;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Prints the library's log records (a release that failed, a lease lost) as one line on stderr,
 * like every other message of {@code lease}: {@code lease: warning: ...}, never a stack trace. Left
 * alone when the user configured logging with {@code java.util.logging.config.file}.
 */
final class OneLineLogFormat extends Formatter {

  static void install() {
    if (System.getProperty("java.util.logging.config.file") != null) {
      return;
    }
    for (Handler handler : Logger.getLogger("").getHandlers()) {
      handler.setFormatter(new OneLineLogFormat());
    }
  }

  @Override
  public String format(LogRecord record) {
    Throwable thrown = record.getThrown();
    return "lease: "
        + record.getLevel().getName().toLowerCase(Locale.ROOT)
        + ": "
        + CliErrors.oneLine(formatMessage(record))
        + (thrown == null ? "" : " (" + CliErrors.oneLine(thrown.getMessage()) + ")")
        + System.lineSeparator();
  }
}
