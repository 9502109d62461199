/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.cli;

/**
 * How many terminal columns a string takes, so that table columns line up for any key: a wide East
 * Asian character or an emoji takes two, a combining mark or a format character none, anything else
 * one. The JDK has no East Asian width property; the ranges are those of Unicode's EastAsianWidth W
 * and F classes, coarsened as terminals' {@code wcwidth} does. Stateless; thread-safe.
 */
final class DisplayWidth {

  /** Inclusive ranges of code points two columns wide. */
  private static final int[][] WIDE = {
    {0x1100, 0x115F}, // Hangul Jamo initial consonants
    {0x231A, 0x231B},
    {0x2329, 0x232A},
    {0x23E9, 0x23EC},
    {0x2614, 0x2615},
    {0x2E80, 0x303E}, // CJK radicals, Kangxi, CJK symbols and punctuation
    {0x3041, 0x33FF}, // Hiragana, Katakana, Bopomofo, Hangul compatibility, CJK compatibility
    {0x3400, 0x4DBF}, // CJK extension A
    {0x4E00, 0x9FFF}, // CJK unified ideographs
    {0xA000, 0xA4CF}, // Yi
    {0xA960, 0xA97F},
    {0xAC00, 0xD7A3}, // Hangul syllables
    {0xF900, 0xFAFF}, // CJK compatibility ideographs
    {0xFE10, 0xFE19},
    {0xFE30, 0xFE6F}, // CJK compatibility forms, small form variants
    {0xFF00, 0xFF60}, // fullwidth forms
    {0xFFE0, 0xFFE6},
    {0x16FE0, 0x18CFF}, // Tangut and friends
    {0x1B000, 0x1B2FF}, // Kana supplement, Nushu
    {0x1F004, 0x1F004},
    {0x1F0CF, 0x1F0CF},
    {0x1F18E, 0x1F18E},
    {0x1F191, 0x1F19A},
    {0x1F200, 0x1F2FF},
    {0x1F300, 0x1F64F}, // pictographs, emoticons
    {0x1F680, 0x1F6FF}, // transport and map symbols
    {0x1F7E0, 0x1F7EB},
    {0x1F90C, 0x1F9FF}, // supplemental symbols and pictographs
    {0x1FA70, 0x1FAFF},
    {0x20000, 0x2FFFD}, // CJK extensions B to F
    {0x30000, 0x3FFFD}, // CJK extension G
  };

  private DisplayWidth() {}

  /** The columns {@code text} takes on a terminal. */
  static int of(String text) {
    int width = 0;
    for (int i = 0; i < text.length(); ) {
      int point = text.codePointAt(i);
      i += Character.charCount(point);
      width += of(point);
    }
    return width;
  }

  static int of(int point) {
    int type = Character.getType(point);
    if (type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.FORMAT
        || point == 0x200B) {
      return 0;
    }
    for (int[] range : WIDE) {
      if (point < range[0]) {
        return 1; // sorted ranges: no later one can hold it
      }
      if (point <= range[1]) {
        return 2;
      }
    }
    return 1;
  }
}
