/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The mutants of the mutation runs ({@link MutantMain}, run by {@code .ci/run}) still fit the code:
 * a change that moves what a mutant edits fails here, in the ordinary build, and the CI run would
 * fail to build the mutant rather than test the unmutated library.
 */
class MutantTest {

  /** The repository's root, from the module's directory where the tests run. */
  private static final Path ROOT = Path.of("..");

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(Mutant.class)
  void everyMutantAppliesToTheLibrarysSourcesAndCompilesAgainstItsJars(Mutant mutant)
      throws Exception {
    Path classes = MutantMain.build(mutant, ROOT, dir);

    assertThat(classes.resolve(mutant.className().replace('.', '/') + ".class")).isRegularFile();
    String original = Files.readString(ROOT.resolve(mutant.source()));
    assertThat(mutant.mutate(ROOT)).isNotEqualTo(original);
  }

  @Test
  void theKeyLockMutantReplacesTheCallWhateverItsArguments() {
    String source =
        "class FencedRunner {\n"
            + "  KeyLock take() throws InterruptedException {\n"
            + "    return repository.lockKey(lease.key(), settings.silence(lease.ttl()));\n"
            + "  }\n"
            + "}\n";

    String mutated = Mutant.NO_KEY_LOCK.mutate(source);

    assertThat(mutated)
        .contains("return mutantNoKeyLock();")
        .doesNotContain("repository.lockKey(")
        .contains("private static LeaseRepository.KeyLock mutantNoKeyLock()");
  }

  @Test
  void aMutantWhoseCodeMovedFailsLoudlyInsteadOfLeavingTheLibraryUnmutated() {
    String moved = "class FencedRunner {\n  KeyLock take() { return locks.take(key); }\n}\n";
    String twice =
        "class FileLeaseRepository {\n"
            + "  void a() { throw new RevisionConflict(k, 1, 2); }\n"
            + "  void b() { throw new RevisionConflict(k, 1, 2); }\n"
            + "}\n";

    assertThatThrownBy(() -> Mutant.NO_KEY_LOCK.mutate(moved))
        .isInstanceOf(Mutant.DoesNotApply.class)
        .hasMessageContaining("no-key-lock does not apply")
        .hasMessageContaining("occurs 0 times in lease-core/")
        .hasMessageContaining("update the mutant");
    assertThatThrownBy(() -> Mutant.SAVE_WITHOUT_REVISION_COMPARE.mutate(twice))
        .isInstanceOf(Mutant.DoesNotApply.class)
        .hasMessageContaining("occurs 2 times");
  }

  @Test
  void aRunIsJudgedByThePhasesOwnLinesNotByItsExamplesOrTotals() {
    List<String> report =
        List.of(
            "== file: file, fencing off, 4 workers, 20 s, seed 1 ==",
            "  P1 tokens only go up                                0",
            "  P2 the resource never accepted a stale write        1",
            "  P3 never two holders in one key's fenced section    4   (the holder's key lock"
                + " lost: a database session ended, reported apart: 2)",
            "  stale writes rejected: 0",
            "  P2 violation: seq 207: key k1 accepted a write of w2.1 with token 1796508534886000"
                + " after token 1796508534886004",
            "  outcome: PASS (negative control: violations expected)",
            "== total (negative control apart) ==",
            "  P6 no takeover of a live holder before its TTL      0   (reported apart: 0;"
                + " negative control: 9)");

    MutantMain.Run run = MutantMain.judged(0, Duration.ofSeconds(1), report);

    assertThat(run.violations()).isEqualTo(Map.of("P2", 1L, "P3", 4L));
    assertThat(run.outcome()).isEqualTo("PASS");
  }
}
