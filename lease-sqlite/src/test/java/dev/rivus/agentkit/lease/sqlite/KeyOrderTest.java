/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

  /** The order is that of a stable sort by the keys' unsigned bytes, whatever the keys. */
  @Property
  void ordersLikeAStableSortOfTheBytes(
      @ForAll @Size(max = 200) List<@StringLength(max = 6) String> keys) {
    byte[][] bytes = keys.stream().map(KeyBytes::encode).toArray(byte[][]::new);

    int[] order = KeyOrder.of(bytes);

    Integer[] expected = IntStream.range(0, bytes.length).boxed().toArray(Integer[]::new);
    Arrays.sort(expected, Comparator.comparing(i -> bytes[i], Arrays::compareUnsigned));
    assertThat(order).containsExactly(Arrays.stream(expected).mapToInt(i -> i).toArray());
  }

  @Test
  void keepsTheOrderOfOneKeysWritesAndPutsAPrefixFirst() {
    byte[][] keys = {
      KeyBytes.encode("job/b"),
      KeyBytes.encode("job/a"),
      KeyBytes.encode("job/"),
      KeyBytes.encode("job/a"),
      KeyBytes.encode("job/\u00e9"),
      KeyBytes.encode("job/a")
    };

    assertThat(KeyOrder.of(keys)).containsExactly(2, 1, 3, 5, 0, 4);
  }

  @Test
  void sortsManyKeysWithACommonPrefix() {
    byte[][] keys =
        IntStream.range(0, 5_000)
            .map(i -> (i * 7919) % 5_000)
            .mapToObj(i -> KeyBytes.encode("tenants/acme/jobs/" + i))
            .toArray(byte[][]::new);

    int[] order = KeyOrder.of(keys);

    for (int k = 1; k < order.length; k++) {
      assertThat(Arrays.compareUnsigned(keys[order[k - 1]], keys[order[k]])).isNegative();
    }
  }

  @Test
  void sortsKeysThatArePrefixesOfEachOtherWithoutADeepStack() {
    byte[][] keys =
        IntStream.range(1, 4_001)
            .map(i -> (i * 7919) % 4_000 + 1)
            .mapToObj(i -> KeyBytes.encode("a".repeat(i)))
            .toArray(byte[][]::new);

    int[] order = KeyOrder.of(keys);

    for (int k = 1; k < order.length; k++) {
      assertThat(keys[order[k]]).hasSize(keys[order[k - 1]].length + 1);
    }
  }
}
