package dev.rivus.agentkit.lease.cli;

import dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import picocli.CommandLine;

/**
 * The entry point of the {@code lease} command. See {@code lease --help} and {@code docs/cli.md}.
 *
 * <p>Run it with the {@code ./lease} launcher at the root of the repository, or as {@code java -cp
 * CLASSPATH dev.rivus.agentkit.lease.cli.LeaseCli ARGS...}.
 */
public final class LeaseCli {

  private static final Set<String> SQLITE_COMMANDS =
      Set.of("run", "status", "list", "release", "prune");

  private LeaseCli() {}

  /**
   * Runs {@code lease} with the given arguments and exits the JVM with its exit code.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    OneLineLogFormat.configureOnFirstUse();
    InstalledSqliteLibrary.prefer();
    preloadSqlite(args);
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code = execute(CliContext.system(), out, err, args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * Loads SQLite on a thread of its own while picocli reads the command line, when the command will
   * open a SQLite database: the two take about as long, and a machine has more than one core. A
   * failure is left for the command's own open to report.
   */
  private static void preloadSqlite(String[] args) {
    if (args.length == 0 || !SQLITE_COMMANDS.contains(args[0])) {
      return;
    }
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      if (arg.equals("--dir") || arg.startsWith("--dir=")) {
        return;
      }
    }
    Thread preload =
        new Thread(
            () -> {
              try {
                SqliteLeaseRepository.preload();
              } catch (RuntimeException | LinkageError e) {
                // the command's own open reports it
              }
            },
            "lease-sqlite-preload");
    preload.setDaemon(true);
    preload.start();
  }

  /** Runs {@code lease} in this JVM, for tests: returns the exit code instead of exiting. */
  static int execute(CliContext context, PrintWriter out, PrintWriter err, String... args) {
    CliErrors errors = new CliErrors(context.environment());
    CommandLine cli =
        new CommandLine(new LeaseCommand(context))
            .setOut(out)
            .setErr(err)
            .setExpandAtFiles(false)
            .setParameterExceptionHandler(errors)
            .setExecutionExceptionHandler(errors);
    return cli.execute(args);
  }
}
