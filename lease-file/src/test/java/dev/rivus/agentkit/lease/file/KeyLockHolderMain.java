/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.file;

import dev.rivus.agentkit.lease.LeaseRepository;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Child process: opens a file repository, takes a key lock, prints {@code FENCED}, and holds the
 * key lock until killed or until its standard input ends. Arguments: directory, key.
 */
public final class KeyLockHolderMain {

  private KeyLockHolderMain() {}

  public static void main(String[] args) throws InterruptedException, IOException {
    FileLeaseRepository repository = FileLeaseRepository.open(Path.of(args[0]));
    LeaseRepository.KeyLock keyLock = repository.lockKey(args[1]);
    System.out.println("FENCED " + ProcessHandle.current().pid());
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the key lock until the parent goes away
    }
    keyLock.close();
  }
}
