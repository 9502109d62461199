/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import java.util.Arrays;

/**
 * Orders a batch's writes by their keys' bytes, the order of the table's B-tree, so that a batch
 * visits each page once, in turn, instead of fetching pages at random (measured: 30,000 renewals in
 * the hash order of a manager's leases cost 2.5 times the CPU).
 *
 * <p>A multikey quicksort (Bentley and Sedgewick): it partitions by one byte at a time, so keys
 * that share a long prefix ({@code jobs/tenant-42/...}) cost no repeated comparison of the prefix,
 * and it sorts an {@code int[]} of indexes, not boxed ones. Writes of one key keep their order
 * (ties go by index). Stateless; thread-safe.
 */
final class KeyOrder {

  /** Below this many, an insertion sort from the current byte on is faster than partitioning. */
  private static final int SMALL = 12;

  private KeyOrder() {}

  /**
   * Returns the indexes of {@code keys} in the unsigned lexicographic order of the keys, equal keys
   * in the order of their indexes.
   */
  static int[] of(byte[][] keys) {
    int[] order = new int[keys.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    if (!ascending(keys)) {
      sort(keys, order, 0, order.length, 0);
    }
    return order;
  }

  /**
   * Whether the keys already come in order: a manager's renewal rounds hand their batches in the
   * order of {@code String.compareTo}, which is this order unless a key holds characters beyond
   * U+FFFF. One pass over keys allocated one after the other, instead of a sort's random visits.
   */
  private static boolean ascending(byte[][] keys) {
    for (int i = 1; i < keys.length; i++) {
      if (Arrays.compareUnsigned(keys[i - 1], keys[i]) > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Sorts {@code order[from, to)}, whose keys agree on their first {@code depth} bytes. Of the
   * three parts a partition leaves, it loops on the largest and recurses into the others, each at
   * most half the range, so the stack stays within log2(n) frames whatever the keys.
   */
  private static void sort(byte[][] keys, int[] order, int from, int to, int depth) {
    while (to - from > SMALL) {
      int pivot = byteAt(keys[order[(from + to) >>> 1]], depth);
      // Three-way partition: [from, lt) below the pivot, [lt, gt) equal, [gt, to) above.
      int lt = from;
      int gt = to;
      int i = from;
      while (i < gt) {
        int b = byteAt(keys[order[i]], depth);
        if (b < pivot) {
          swap(order, lt++, i++);
        } else if (b > pivot) {
          swap(order, i, --gt);
        } else {
          i++;
        }
      }
      if (pivot < 0) {
        Arrays.sort(order, lt, gt); // equal keys: by index, so a key's writes keep their order
        sort(keys, order, gt, to, depth); // nothing is below the end of a key: [from, lt) is empty
        return;
      }
      int below = lt - from;
      int equal = gt - lt;
      int above = to - gt;
      if (equal >= below && equal >= above) {
        sort(keys, order, from, lt, depth);
        sort(keys, order, gt, to, depth);
        from = lt; // the equal part, on the next byte
        to = gt;
        depth++;
      } else if (below >= above) {
        sort(keys, order, lt, gt, depth + 1);
        sort(keys, order, gt, to, depth);
        to = lt;
      } else {
        sort(keys, order, from, lt, depth);
        sort(keys, order, lt, gt, depth + 1);
        from = gt;
      }
    }
    insertionSort(keys, order, from, to, depth);
  }

  private static void insertionSort(byte[][] keys, int[] order, int from, int to, int depth) {
    for (int i = from + 1; i < to; i++) {
      int moving = order[i];
      int j = i;
      while (j > from && precedes(keys, moving, order[j - 1], depth)) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = moving;
    }
  }

  /** Whether key {@code a} goes before key {@code b}; both agree on their first depth bytes. */
  private static boolean precedes(byte[][] keys, int a, int b, int depth) {
    byte[] x = keys[a];
    byte[] y = keys[b];
    int compared =
        Arrays.compareUnsigned(
            x, Math.min(depth, x.length), x.length, y, Math.min(depth, y.length), y.length);
    return compared < 0 || (compared == 0 && a < b);
  }

  /** The unsigned byte at {@code depth}, or -1 past the end (a shorter key comes first). */
  private static int byteAt(byte[] key, int depth) {
    return depth < key.length ? key[depth] & 0xFF : -1;
  }

  private static void swap(int[] order, int i, int j) {
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}
