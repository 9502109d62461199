/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.workers;

/**
 * A worker JVM that logs a lot to stderr, as a chatty application does: {@code NoisyWorkerMain
 * (WorkerMain's arguments)} runs a daemon thread that writes a 500-character line to {@code
 * System.err} every 5 ms, then runs {@link WorkerMain}. When the driver stops reading the pipe, the
 * noise fills it and every writer to {@code System.err}, the library's own logging included, blocks
 * on it ({@link NoisyWorker}).
 *
 * <p>A program, as {@link WorkerMain}, with one more thread: the noise.
 */
public final class NoisyWorkerMain {

  private NoisyWorkerMain() {}

  /**
   * Runs a noisy worker.
   *
   * @param args the worker's settings, as {@link WorkerSettings#toArgs()} writes them
   */
  public static void main(String[] args) {
    String line = "noise " + "x".repeat(494);
    Thread noise =
        new Thread(
            () -> {
              try {
                while (true) {
                  System.err.println(line);
                  Thread.sleep(5); // the application's pace of logging
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "noise");
    noise.setDaemon(true);
    noise.start();
    WorkerMain.main(args);
  }
}
