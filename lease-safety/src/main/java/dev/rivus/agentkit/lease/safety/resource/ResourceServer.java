/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.safety.resource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Serves a {@link ProtectedResource} on a loopback TCP port, one thread per connection.
 *
 * <p>Thread-safe. Closing stops accepting connections; open connections end with their clients.
 */
final class ResourceServer implements AutoCloseable {

  private final ServerSocket server;
  private final ProtectedResource resource;

  private ResourceServer(ServerSocket server, ProtectedResource resource) {
    this.server = server;
    this.resource = resource;
  }

  /**
   * Starts serving on an ephemeral port of 127.0.0.1.
   *
   * @param resource the resource
   * @return the running server
   * @throws UncheckedIOException if the port cannot be opened
   */
  public static ResourceServer start(ProtectedResource resource) {
    try {
      ServerSocket socket = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
      ResourceServer server = new ResourceServer(socket, resource);
      Thread acceptor = new Thread(server::acceptLoop, "resource-accept");
      acceptor.setDaemon(true);
      acceptor.start();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the resource's port", e);
    }
  }

  /**
   * Returns the port it listens on.
   *
   * @return the port
   */
  public int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Thread connection = new Thread(() -> serve(client), "resource-" + client.getPort());
        connection.setDaemon(true);
        connection.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client;
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
      OutputStream out = client.getOutputStream();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.write((resource.handle(line) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
    } catch (IOException clientGone) {
      // a killed worker's connection: its sections are closed by the driver's DEAD
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the resource's port", e);
    }
  }
}
