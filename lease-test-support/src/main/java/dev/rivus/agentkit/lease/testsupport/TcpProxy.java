/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on the loopback interface, for network faults (lease-jdbc's fault tests; the safety
 * harness, one per worker, between its pool and the database server): it forwards both directions
 * between its clients and one server until {@link #freeze() frozen}. Frozen, it forwards nothing
 * and closes nothing, as a cut cable or a dead router would: a client sees silence, never a reset;
 * a client that connects meanwhile is accepted and then hears nothing. {@link #thaw()} delivers
 * what was held and forwards again; {@link #abandonConnections()} instead heals the network for new
 * connections only, leaving the open ones silent for good, as when a partition outlasts the
 * server's or a middlebox's memory of them.
 *
 * <p>Thread-safe. Each connection has two daemon threads, named {@code tcp-proxy-PORT-…}; {@link
 * #close()} closes every socket and waits for them.
 */
public final class TcpProxy implements AutoCloseable {

  private final InetSocketAddress target;
  private final ServerSocket listener;
  private final Thread acceptor;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
  private final List<Socket> waiting = new ArrayList<>(); // guarded by this: accepted while frozen
  private boolean frozen; // guarded by this
  private boolean closed; // guarded by this

  private TcpProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = thread("accept", this::acceptLoop);
  }

  /**
   * Starts a proxy to {@code host:port} on a free port of the loopback interface.
   *
   * @param host the server's host
   * @param port the server's port
   * @return the running proxy
   * @throws IOException if no port can be bound
   */
  public static TcpProxy to(String host, int port) throws IOException {
    TcpProxy proxy = new TcpProxy(new InetSocketAddress(host, port));
    proxy.acceptor.start();
    return proxy;
  }

  /**
   * The port clients connect to.
   *
   * @return the port
   */
  public int port() {
    return listener.getLocalPort();
  }

  /**
   * The proxy's own ports on its connections to the server: the client ports the server reports for
   * the sessions that come through this proxy.
   *
   * @return the ports, in order
   */
  public Set<Integer> serverSidePorts() {
    Set<Integer> ports = new TreeSet<>();
    for (Link link : links) {
      ports.add(link.upstream.getLocalPort());
    }
    return ports;
  }

  /** Stops forwarding, in both directions and on every connection, without closing any. */
  public synchronized void freeze() {
    frozen = true;
  }

  /** Forwards again: first what was held, then everything; connects the clients that waited. */
  public void thaw() {
    List<Socket> accepted;
    synchronized (this) {
      frozen = false;
      notifyAll();
      accepted = new ArrayList<>(waiting);
      waiting.clear();
    }
    accepted.forEach(this::connect);
  }

  /**
   * Leaves every connection open now frozen for good (neither forwarded nor closed until the proxy
   * closes) and forwards new ones: a network healed, but the connections that crossed the cut are
   * dead and nobody tells their ends.
   */
  public void abandonConnections() {
    synchronized (this) {
      for (Link link : links) {
        link.abandoned = true;
      }
    }
    thaw();
  }

  private void acceptLoop() {
    while (true) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException closedOrFailed) {
        return;
      }
      synchronized (this) {
        if (closed) {
          closeQuietly(client);
          return;
        }
        if (frozen) {
          waiting.add(client); // accepted by the kernel anyway; it hears nothing until thawed
          continue;
        }
      }
      connect(client);
    }
  }

  private void connect(Socket client) {
    thread(
            "connect",
            () -> {
              Socket upstream = new Socket();
              try {
                upstream.connect(target, 10_000);
              } catch (IOException refused) {
                closeQuietly(upstream);
                closeQuietly(client);
                return;
              }
              Link link = new Link(client, upstream);
              links.add(link);
              synchronized (this) {
                if (closed) {
                  link.close();
                  return;
                }
              }
              thread("up", () -> pump(link, client, upstream)).start();
              thread("down", () -> pump(link, upstream, client)).start();
            })
        .start();
  }

  /**
   * Copies {@code from} to {@code to} while forwarding is on; a close on one side closes the other,
   * once forwarding is on, as any data before it would have been.
   */
  private void pump(Link link, Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      while (true) {
        int read = in.read(buffer);
        if (!awaitForwarding(link)) {
          return;
        }
        if (read < 0) {
          break;
        }
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException resetOrClosed) {
      if (!awaitForwarding(link)) {
        return;
      }
    }
    link.close();
    links.remove(link);
  }

  /** Waits while the link may not forward; false once the proxy is closed. */
  private synchronized boolean awaitForwarding(Link link) {
    while (!closed && (frozen || link.abandoned)) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return !closed;
  }

  private Thread thread(String role, Runnable task) {
    Thread thread =
        new Thread(
            () -> {
              try {
                task.run();
              } finally {
                threads.remove(Thread.currentThread());
              }
            },
            "tcp-proxy-" + listener.getLocalPort() + "-" + role);
    thread.setDaemon(true);
    threads.add(thread);
    return thread;
  }

  /** Closes the listener and every connection, and waits for the proxy's threads to end. */
  @Override
  public void close() throws InterruptedException {
    List<Socket> accepted;
    synchronized (this) {
      closed = true;
      notifyAll();
      accepted = new ArrayList<>(waiting);
      waiting.clear();
    }
    closeQuietly(listener);
    accepted.forEach(TcpProxy::closeQuietly);
    links.forEach(Link::close);
    links.clear();
    for (Thread thread : List.copyOf(threads)) {
      thread.join(10_000);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // closing a socket twice, or one already reset
    }
  }

  @Override
  public String toString() {
    return "TcpProxy[127.0.0.1:" + port() + " -> " + target + "]";
  }

  /** One client connection and the proxy's connection to the server for it. */
  private static final class Link {
    final Socket client;
    final Socket upstream;
    volatile boolean abandoned; // written under the proxy's monitor

    Link(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void close() {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }
}
