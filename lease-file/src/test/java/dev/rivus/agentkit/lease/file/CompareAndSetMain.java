/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.testkit.Samples;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Child process: prints {@code READY}, waits for {@code GO} on standard input, then makes a number
 * of compare-and-set increments of one key's record, printing {@code WON <revision>} for each save
 * that succeeded and finally {@code DONE <successes>}. Arguments: directory, key, attempts, handle
 * id.
 */
public final class CompareAndSetMain {

  private CompareAndSetMain() {}

  public static void main(String[] args) throws IOException {
    FileLeaseRepository repository = FileLeaseRepository.open(Path.of(args[0]));
    String key = args[1];
    int attempts = Integer.parseInt(args[2]);
    String handle = args[3];
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.out.println("READY");
    System.out.flush();
    if (!"GO".equals(in.readLine())) {
      return;
    }
    int successes = 0;
    for (int i = 0; i < attempts; i++) {
      Optional<LeaseSnapshot> stored = repository.load(key);
      LeaseWrite next =
          stored
              .map(s -> s.renewal(Instant.now()))
              .orElseGet(
                  () ->
                      LeaseSnapshot.firstAcquisition(
                          key, Samples.holder(handle), Samples.TTL, Instant.now()));
      try {
        repository.save(next);
        successes++;
        System.out.println("WON " + next.snapshot().revision());
      } catch (RevisionConflict lost) {
        // another process moved first
      }
    }
    System.out.println("DONE " + successes);
    System.out.flush();
  }
}
