/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Child process: locks a byte range of a file, prints {@code LOCKED}, and holds the lock until
 * killed or until its standard input ends. Arguments: file, position, size.
 */
public final class RangeLockHolderMain {

  private RangeLockHolderMain() {}

  public static void main(String[] args) throws InterruptedException, IOException {
    FileRangeLock lock =
        FileRangeLock.of(Path.of(args[0]), Long.parseLong(args[1]), Long.parseLong(args[2]));
    FileRangeLock.Held held = lock.lock();
    System.out.println("LOCKED " + ProcessHandle.current().pid());
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the lock until the parent goes away
    }
    held.close();
  }
}
