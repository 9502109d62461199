/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.support;

import java.nio.file.FileSystems;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The permissions the repositories give the files and directories they create, so that no other
 * user can write to a store whatever the process's umask: with {@code umask 000}, a file created
 * without them was {@code rw-rw-rw-}, and any local user could rewrite a lease record. The umask
 * still applies (it can only take permissions away), so {@code umask 077} makes them private. Where
 * the file system has no POSIX permissions (Windows), there are none to give.
 *
 * <p>Thread-safe: immutable.
 */
public final class FileModes {

  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private static final FileAttribute<?>[] NONE = new FileAttribute<?>[0];

  private FileModes() {}

  /**
   * The permissions of a new file: {@code rw-r--r--}, others may read (list, status) but not write.
   *
   * @return the attributes to pass when creating a file; empty where there are no POSIX permissions
   */
  public static FileAttribute<?>[] file() {
    return of("rw-r--r--");
  }

  /**
   * The permissions of a new directory of records: {@code rwxr-xr-x}, so that no other user can
   * create, rename or delete files in it.
   *
   * @return the attributes to pass when creating a directory; empty where there are no POSIX
   *     permissions
   */
  public static FileAttribute<?>[] directory() {
    return of("rwxr-xr-x");
  }

  /**
   * The permissions of a new private directory (a user's own state directory): {@code rwx------}.
   *
   * @return the attributes to pass when creating a directory; empty where there are no POSIX
   *     permissions
   */
  public static FileAttribute<?>[] privateDirectory() {
    return of("rwx------");
  }

  private static FileAttribute<?>[] of(String permissions) {
    if (!POSIX) {
      return NONE;
    }
    return new FileAttribute<?>[] {
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions))
    };
  }
}
