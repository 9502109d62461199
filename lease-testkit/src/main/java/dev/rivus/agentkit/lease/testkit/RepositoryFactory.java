/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.testkit;

import dev.rivus.agentkit.lease.LeaseRepository;

/**
 * Opens a repository from a one-line text spec, so that a child JVM started by {@link
 * dev.rivus.agentkit.lease.testsupport.ChildJvm} can open the same storage as the test that started
 * it. Each adapter's test module provides one implementation, for example one whose spec is a
 * directory path or a JDBC URL.
 *
 * <p>Implementations are public classes with a public no-argument constructor: {@link
 * LeaseHolderMain} instantiates them by class name. They must be safe to call from any thread.
 */
public interface RepositoryFactory {

  /**
   * Opens the repository that {@code spec} names. Two calls with the same spec, in this process or
   * another, open the same storage.
   *
   * @param spec the storage to open, in the adapter's own notation (a path, a URL)
   * @return the open repository; the caller closes it
   * @throws Exception if the storage cannot be opened
   */
  LeaseRepository open(String spec) throws Exception;

  /**
   * Instantiates a factory by class name, through its public no-argument constructor.
   *
   * @param className the binary name of a class implementing this interface
   * @return a new instance
   * @throws IllegalArgumentException if the class is missing, does not implement this interface, or
   *     cannot be instantiated; the message names the class
   */
  static RepositoryFactory byClassName(String className) {
    Class<?> type;
    try {
      type = Class.forName(className, true, RepositoryFactory.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("repository factory class not found: " + className, e);
    }
    if (!RepositoryFactory.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(
          className + " does not implement " + RepositoryFactory.class.getName());
    }
    try {
      return (RepositoryFactory) type.getConstructor().newInstance();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot instantiate repository factory "
              + className
              + " through a public no-argument constructor",
          e);
    }
  }
}
