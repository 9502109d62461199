/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mutant of the library: one class of its real sources, broken by edits that each must match
 * exactly once, so that a change to the code that moves what an edit looks for fails the mutant's
 * build ({@link DoesNotApply}) instead of leaving the library unmutated. {@link MutantMain}
 * compiles the edited class against the built jars and runs a phase with it first on the class path
 * of the driver and of every JVM the driver starts (they inherit its class path).
 */
enum Mutant {
  /**
   * Fenced work that takes no key lock: {@code FencedRunner}'s one call of {@code lockKey},
   * whatever its arguments, replaced by a lock that excludes nobody (it answers an interrupt as a
   * wait would, and says it is held). A successor of a holder stopped inside its fenced section
   * enters at once: P3.
   */
  NO_KEY_LOCK(
      "file",
      "lease-core/src/main/java/dev/rivus/agentkit/lease/internal/FencedRunner.java",
      "dev.rivus.agentkit.lease.internal.FencedRunner",
      "fenced work takes no key lock (FencedRunner: its call of lockKey)",
      new Edit(
          "the call repository.lockKey(...)",
          // Two levels of parentheses in the arguments: lockKey(lease.key()), lockKey(key, x.y()).
          "\\brepository\\s*\\.\\s*lockKey\\s*\\((?:[^()]|\\((?:[^()]|\\([^()]*\\))*\\))*\\)",
          "mutantNoKeyLock()"),
      new Edit(
          "the class's closing brace",
          "\\}\\s*\\z",
          "\n  /** The mutant's key lock: it excludes nobody. */\n"
              + "  private static LeaseRepository.KeyLock mutantNoKeyLock()"
              + " throws InterruptedException {\n"
              + "    if (Thread.interrupted()) {\n"
              + "      throw new InterruptedException(\"mutant: waiting for no key lock\");\n"
              + "    }\n"
              + "    return new LeaseRepository.KeyLock() {\n"
              + "      @Override\n"
              + "      public boolean isHeld() {\n"
              + "        return true;\n"
              + "      }\n\n"
              + "      @Override\n"
              + "      public void close() {}\n"
              + "    };\n"
              + "  }\n"
              + "}\n")),
  /**
   * Takeover without waiting out the TTL: {@code Observations.observe}, which tells how long a
   * manager has seen a held record unchanged, says ten years, so that any acquirer takes over a
   * live holder at once. P6 (a takeover of a live holder before its TTL), and with fencing off P2
   * (the taken-over holder's write after its successor's).
   */
  TAKEOVER_WITHOUT_TTL(
      "file",
      "lease-core/src/main/java/dev/rivus/agentkit/lease/internal/Observations.java",
      "dev.rivus.agentkit.lease.internal.Observations",
      "a held record counts as unchanged for ten years at once (Observations.observe): takeover"
          + " of live holders without waiting out the TTL",
      new Edit(
          "the statement return Duration.ofNanos(now - first.firstSeenNanos);",
          "\\breturn\\s+Duration\\.ofNanos\\(\\s*now\\s*-\\s*first\\.firstSeenNanos\\s*\\)\\s*;",
          "return Duration.ofDays(3650);")),
  /**
   * A JSON-file repository whose save skips the revision compare: {@code FileLeaseRepository}'s one
   * {@code throw new RevisionConflict(...)} never thrown, so that a save writes over whatever is
   * stored. Two acquirers that both read a free key both get it, and a holder taken over writes its
   * renewals over its successor's record: P1 and P4 (one token granted twice), and P2 with fencing
   * off (a lower token written after a higher one). Not in the {@linkplain #DEFAULT default set}:
   * since generations take the wall clock's microseconds, two acquirers of one key get different
   * tokens, and the mutant shows only when two acquisitions race between load and save, which a 20
   * s phase does not always bring about (caught in 1 of 2 runs here).
   */
  SAVE_WITHOUT_REVISION_COMPARE(
      "file",
      "lease-file/src/main/java/dev/rivus/agentkit/lease/file/FileLeaseRepository.java",
      "dev.rivus.agentkit.lease.file.FileLeaseRepository",
      "the file repository's save skips the revision compare (FileLeaseRepository: its"
          + " RevisionConflict never thrown)",
      new Edit(
          "the statement throw new RevisionConflict(",
          "\\bthrow\\s+new\\s+RevisionConflict\\s*\\(",
          "if (false) throw new RevisionConflict("));

  /**
   * The mutants {@link MutantMain} runs unless told otherwise, each caught in every short phase
   * tried: {@link #NO_KEY_LOCK} and {@link #TAKEOVER_WITHOUT_TTL}.
   */
  static final Set<Mutant> DEFAULT =
      Collections.unmodifiableSet(EnumSet.of(NO_KEY_LOCK, TAKEOVER_WITHOUT_TTL));

  private final String repository;
  private final String source;
  private final String className;
  private final String description;

  @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable, of records
  private final List<Edit> edits;

  Mutant(String repository, String source, String className, String description, Edit... edits) {
    this.repository = repository;
    this.source = source;
    this.className = className;
    this.description = description;
    this.edits = List.of(edits);
  }

  /**
   * Returns the name on the command line and in reports.
   *
   * @return {@code no-key-lock}, {@code takeover-without-ttl} or {@code
   *     save-without-revision-compare}
   */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The repository of the phase run against the mutant ({@code --repository} of SafetyMain). */
  String repository() {
    return repository;
  }

  /** What the mutant breaks, for people. */
  String description() {
    return description;
  }

  /** The binary name of the class the mutant replaces. */
  String className() {
    return className;
  }

  /** The mutated source file, relative to the repository's root. */
  String source() {
    return source;
  }

  /**
   * Returns the mutated source of the class, read from the repository at {@code root}.
   *
   * @param root the repository's root (the directory of the parent {@code pom.xml})
   * @return the edited source
   * @throws DoesNotApply if an edit does not match exactly once
   * @throws UncheckedIOException if the source cannot be read
   */
  String mutate(Path root) {
    Path file = root.resolve(source);
    String original;
    try {
      original = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("mutant " + label() + ": cannot read " + file, e);
    }
    return mutate(original);
  }

  /**
   * Returns {@code original} with every edit applied.
   *
   * @param original the class's source
   * @return the edited source
   * @throws DoesNotApply if an edit does not match exactly once
   */
  String mutate(String original) {
    String mutated = original;
    for (Edit edit : edits) {
      mutated = edit.apply(this, mutated);
    }
    return mutated;
  }

  /**
   * One edit: what it looks for, which must occur exactly once, and what it puts in its place.
   *
   * @param what what the pattern finds, for the message of an edit that does not apply
   * @param pattern the regular expression
   * @param replacement the text put in place of the match, literally
   */
  record Edit(String what, String pattern, String replacement) {

    String apply(Mutant mutant, String source) {
      Matcher matcher = Pattern.compile(pattern).matcher(source);
      int found = 0;
      int start = -1;
      int end = -1;
      while (matcher.find()) {
        found++;
        start = matcher.start();
        end = matcher.end();
      }
      if (found != 1) {
        throw new DoesNotApply(
            "mutant "
                + mutant.label()
                + " does not apply: "
                + what
                + " (/"
                + pattern
                + "/) occurs "
                + found
                + " times in "
                + mutant.source
                + ", not once; the code moved: update the mutant (lease-safety Mutant.java)");
      }
      return source.substring(0, start) + replacement + source.substring(end);
    }
  }

  /** A mutant whose edits no longer fit the code: it must fail, never test the real library. */
  static final class DoesNotApply extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DoesNotApply(String message) {
      super(message);
    }
  }
}
