/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import dev.rivus.agentkit.lease.testsupport.ChildJvm;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Mutation runs (issue 24): proves that the harness fails on the real library when it is broken,
 * not only on its own broken double ({@code BrokenRepository}).
 *
 * <pre>{@code
 * java -cp 'lease-safety/target/lease-safety-0.1.0-SNAPSHOT.jar:lease-safety/target/lib/*' \
 *     dev.rivus.agentkit.lease.safety.driver.MutantMain [--sources .] [--seconds 20] [--seed S]
 * }</pre>
 *
 * <p>For every {@link Mutant}, applies its edits to the library's real source (from {@code
 * --sources}, the repository's root) and compiles that one class against the built jars on this
 * JVM's class path; an edit that no longer matches, or a mutant that does not compile, fails the
 * run before any phase. Then runs, each in a driver JVM of its own, a short phase of {@link
 * SafetyMain} with {@code --no-fencing} (the resource checks no token, and no storage fault loses
 * the store, so that what the library lets through reaches the checker): first the <b>control</b>,
 * on the unmutated library, which must pass; then each mutant, with its classes first on the
 * driver's class path, which every worker and {@code lease run} JVM inherits, and {@code
 * --expect-violations}: the checker must report violations. Exits 0 only if the control passed and
 * every mutant was caught; 1 if not; 64 for bad options.
 *
 * <p>A program: its state is its run's, on the main thread.
 */
public final class MutantMain {

  /** A property's line in a phase's report: its name, its words (no colon), its count. */
  private static final Pattern PROPERTY =
      Pattern.compile("^  (P\\d+) [^:]+?\\s(\\d+)(?:\\s{3}\\(.*\\))?$");

  private static final Pattern OUTCOME = Pattern.compile("^  outcome: (\\S+)");

  private MutantMain() {}

  /**
   * Builds the mutants, runs the control and each mutant, and exits.
   *
   * @param args the options
   * @throws IOException if the run's directory cannot be made
   * @throws InterruptedException if interrupted
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException bad) {
      System.err.println("mutants: " + bad.getMessage());
      System.exit(64);
      return;
    }
    System.exit(run(options) ? 0 : 1);
  }

  private static boolean run(Options options) throws IOException, InterruptedException {
    Path out = options.common.logDirectory("lease-mutants");
    System.out.printf(
        "lease mutation runs: %s against %s, %d s each, seed %d; logs in %s%n",
        options.mutants.stream().map(Mutant::label).toList(),
        options.sources.toAbsolutePath().normalize(),
        options.seconds,
        options.common.seed,
        out);
    Map<Mutant, Path> built = new LinkedHashMap<>();
    for (Mutant mutant : options.mutants) {
      try {
        built.put(mutant, build(mutant, options.sources, out.resolve(mutant.label())));
      } catch (Mutant.DoesNotApply | UncheckedIOException e) {
        System.out.println("MUTANT NOT BUILT: " + e.getMessage());
        return false;
      }
      System.out.println("built mutant " + mutant.label() + ": " + mutant.description());
    }
    List<String> summary = new ArrayList<>();
    boolean passed = true;
    if (options.control()) {
      Set<String> repositories = new TreeSet<>();
      options.mutants.forEach(m -> repositories.add(m.repository()));
      for (String repository : repositories) {
        Run control = phase(null, repository, options, out.resolve("control-" + repository));
        boolean clean = control.exit == 0;
        passed &= clean;
        summary.add(
            String.format(
                "  control, %s phase: %s in %d s (%s): the real library",
                repository,
                clean ? "PASS" : "FAIL (exit " + control.exit + ", " + control.outcome + ")",
                control.elapsed.toSeconds(),
                counts(control.violations)));
      }
    }
    int caught = 0;
    for (Map.Entry<Mutant, Path> entry : built.entrySet()) {
      Mutant mutant = entry.getKey();
      Run run =
          phase(
              entry.getValue(), mutant.repository(), options, out.resolve("run-" + mutant.label()));
      boolean isCaught = run.exit == 0 && !run.violations.isEmpty();
      caught += isCaught ? 1 : 0;
      summary.add(
          String.format(
              "  %s, %s phase: %s in %d s (%s): %s",
              mutant.label(),
              mutant.repository(),
              isCaught ? "CAUGHT" : "NOT CAUGHT (exit " + run.exit + ", " + run.outcome + ")",
              run.elapsed.toSeconds(),
              counts(run.violations),
              mutant.description()));
    }
    passed &= caught == built.size();
    System.out.println("== mutants, seed " + options.common.seed + " ==");
    summary.forEach(System.out::println);
    System.out.println(
        passed
            ? "EVERY MUTANT CAUGHT (" + caught + " of " + built.size() + ")"
            : "MUTATION RUNS FAILED: " + caught + " of " + built.size() + " mutants caught");
    return passed;
  }

  /** {@code P3 6, P2 1}, or {@code no violation}. */
  private static String counts(Map<String, Long> violations) {
    if (violations.isEmpty()) {
      return "no violation";
    }
    List<String> parts = new ArrayList<>();
    violations.forEach((property, n) -> parts.add(property + " " + n));
    return String.join(", ", parts);
  }

  /**
   * Compiles the mutated class into {@code dir/classes}, against this JVM's class path.
   *
   * @return the directory of the mutant's class files
   */
  static Path build(Mutant mutant, Path sources, Path dir) throws IOException {
    String mutated = mutant.mutate(sources);
    String binary = mutant.className();
    Path source = dir.resolve("src").resolve(binary.replace('.', File.separatorChar) + ".java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, mutated, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new Mutant.DoesNotApply(
          "mutant " + mutant.label() + ": no Java compiler in " + System.getProperty("java.home"));
    }
    StringWriter diagnostics = new StringWriter();
    boolean compiled;
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source);
      List<String> flags =
          List.of(
              "-d",
              classes.toString(),
              "-cp",
              System.getProperty("java.class.path"),
              "--release",
              "17",
              "-proc:none",
              "-implicit:none",
              "-encoding",
              "UTF-8",
              "-nowarn");
      compiled = javac.getTask(diagnostics, files, null, flags, null, units).call();
    }
    Path classFile = classes.resolve(binary.replace('.', File.separatorChar) + ".class");
    if (!compiled || !Files.isRegularFile(classFile)) {
      throw new Mutant.DoesNotApply(
          "mutant "
              + mutant.label()
              + " does not compile against the built jars (rebuild them, or update the mutant): "
              + diagnostics);
    }
    return classes;
  }

  /** What one phase's driver JVM did: its exit code, time, outcome and violations by property. */
  record Run(int exit, Duration elapsed, String outcome, Map<String, Long> violations) {}

  /**
   * Runs one phase of {@link SafetyMain} in a driver JVM of its own, with {@code mutantClasses}
   * first on its class path (the control: none), passing its report through.
   */
  private static Run phase(
      @Nullable Path mutantClasses, String repository, Options options, Path out)
      throws IOException, InterruptedException {
    String classPath = System.getProperty("java.class.path");
    if (mutantClasses != null) {
      classPath = mutantClasses + File.pathSeparator + classPath;
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                ChildJvm.javaBinary(),
                "-cp",
                classPath,
                SafetyMain.class.getName(),
                "--repository",
                repository,
                "--seconds",
                Integer.toString(options.seconds),
                "--workers",
                Integer.toString(options.common.workers),
                "--seed",
                Long.toString(options.common.seed),
                "--out",
                out.toString(),
                "--no-negative-control",
                "--no-fencing"));
    if (mutantClasses != null) {
      command.add("--expect-violations");
    }
    long start = System.nanoTime();
    Process driver = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> report = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(driver.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  System.out.println(line);
                  synchronized (report) {
                    report.add(line);
                  }
                }
              } catch (IOException e) {
                System.out.println("mutants: the driver's output ended: " + e);
              }
            },
            "driver-output");
    reader.setDaemon(true);
    reader.start();
    // A phase ends on its own within its duration and the workers' stop deadline; a driver past
    // this is a hang, ended here so that CI does not wait for its own timeout.
    long patience = options.seconds + 300L;
    if (!driver.waitFor(patience, TimeUnit.SECONDS)) {
      System.out.println("mutants: the driver did not end within " + patience + " s: killed");
      driver.descendants().forEach(ProcessHandle::destroyForcibly);
      driver.destroyForcibly().waitFor();
    }
    reader.join(TimeUnit.SECONDS.toMillis(10));
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    synchronized (report) {
      return judged(driver.exitValue(), elapsed, report);
    }
  }

  /** Reads the phase's outcome and its violations by property from its report. */
  static Run judged(int exit, Duration elapsed, List<String> report) {
    Map<String, Long> violations = new LinkedHashMap<>();
    String outcome = "no outcome";
    for (String line : report) {
      if (line.startsWith("== total")) {
        break; // the phase's own lines are above; the totals sum them
      }
      Matcher property = PROPERTY.matcher(line);
      if (property.matches() && Long.parseLong(property.group(2)) > 0) {
        violations.put(property.group(1), Long.parseLong(property.group(2)));
      }
      Matcher said = OUTCOME.matcher(line);
      if (said.find()) {
        outcome = said.group(1);
      }
    }
    return new Run(exit, elapsed, outcome, violations);
  }

  /** The command line, parsed. */
  @Command(name = "MutantMain", sortOptions = false)
  private static final class Options {
    @Option(names = "--sources", paramLabel = "DIR")
    Path sources = Path.of(".");

    @Option(names = "--seconds", paramLabel = "N", converter = PositiveInteger.class)
    int seconds = 20;

    @Mixin DriverArguments common = new DriverArguments();

    @Option(
        names = "--mutant",
        paramLabel = "no-key-lock|takeover-without-ttl|save-without-revision-compare",
        converter = MutantLabel.class)
    List<Mutant> chosen = new ArrayList<>();

    @Option(names = "--no-control")
    boolean noControl;

    Set<Mutant> mutants = EnumSet.noneOf(Mutant.class);

    boolean control() {
      return !noControl;
    }

    /**
     * Parses the options.
     *
     * @throws IllegalArgumentException saying what is wrong, then how to call the driver
     */
    static Options parse(String[] args) {
      Options options = DriverArguments.parse(new Options(), args);
      options.mutants =
          options.chosen.isEmpty()
              ? EnumSet.copyOf(Mutant.DEFAULT)
              : EnumSet.copyOf(options.chosen);
      if (!Files.isRegularFile(options.sources.resolve("pom.xml"))) {
        throw new IllegalArgumentException(
            "--sources must be the repository's root (with pom.xml), not " + options.sources);
      }
      return options;
    }
  }

  /** Reads a mutant by its label. */
  private static final class MutantLabel implements ITypeConverter<Mutant> {
    @Override
    public Mutant convert(String label) {
      for (Mutant mutant : Mutant.values()) {
        if (mutant.label().equals(label)) {
          return mutant;
        }
      }
      throw new TypeConversionException("no mutant " + label);
    }
  }
}
