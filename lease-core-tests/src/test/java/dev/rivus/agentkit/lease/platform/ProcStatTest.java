/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.platform;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;

/** Parsing of {@code /proc/<pid>/stat} lines. */
class ProcStatTest {

  @Property
  void readsStateAndStartTimeWhateverTheCommandNameHolds(
      @ForAll
          @StringLength(max = 16)
          @Chars({' ', '(', ')', '\n', '\t', 'Z', '7'})
          @CharRange(from = 'a', to = 'c')
          String command,
      @ForAll("states") char state,
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long startTicks) {
    String line = FakeProcTree.statLine(4242, command, state, startTicks);

    assertThat(ProcStat.parse(line)).isEqualTo(new ProcStat(state, startTicks));
  }

  @Provide
  Arbitrary<Character> states() {
    return Arbitraries.of('R', 'S', 'D', 'Z', 'T', 't', 'I', 'X', 'P');
  }

  @Example
  void rejectsALineWithoutTheEndOfTheCommandName() {
    assertThat(ProcStat.parse("4242 (java S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"))
        .isNull();
  }

  @Example
  void rejectsALineCutBeforeTheStartTime() {
    assertThat(ProcStat.parse("4242 (java) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18"))
        .isNull();
  }

  @Example
  void rejectsAStartTimeThatIsNotANumber() {
    String line = FakeProcTree.statLine(1, "x", 'S', 5);

    assertThat(ProcStat.parse(line.replace(" 5 ", " -5 "))).isNull();
    assertThat(ProcStat.parse(line.replace(" 5 ", " 99999999999999999999 "))).isNull();
  }

  @Example
  void tellsAnExitedProcessFromARunningOne() {
    assertThat(new ProcStat('Z', 1).hasExited()).isTrue();
    assertThat(new ProcStat('X', 1).hasExited()).isTrue();
    assertThat(new ProcStat('S', 1).hasExited()).isFalse();
  }
}
