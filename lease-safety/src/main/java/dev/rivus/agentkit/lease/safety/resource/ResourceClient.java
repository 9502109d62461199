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
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One connection to the protected resource: a request line out, a reply line back. A plain socket,
 * not an interruptible channel, so that the loss interrupt of fenced work never breaks the
 * connection half-way through a request.
 *
 * <p>Thread-safe: calls are serialised.
 */
public final class ResourceClient implements AutoCloseable {

  private final Socket socket;
  private final BufferedReader in;
  private final OutputStream out;

  private ResourceClient(Socket socket) throws IOException {
    this.socket = socket;
    this.in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    this.out = socket.getOutputStream();
  }

  /**
   * Connects to the resource on 127.0.0.1.
   *
   * @param port its port
   * @return the connection
   * @throws UncheckedIOException if it cannot connect
   */
  public static ResourceClient connect(int port) {
    try {
      Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setTcpNoDelay(true);
      return new ResourceClient(socket);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot connect to the resource on port " + port, e);
    }
  }

  /**
   * Sends a request and waits for its reply.
   *
   * @param request the request line
   * @return the reply line
   * @throws UncheckedIOException if the connection fails or closes
   */
  public synchronized String call(String request) {
    try {
      out.write((request + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      String reply = in.readLine();
      if (reply == null) {
        throw new IOException("the resource closed the connection");
      }
      return reply;
    } catch (IOException e) {
      throw new UncheckedIOException("resource request '" + request + "' failed", e);
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the resource connection", e);
    }
  }
}
