/**
 * The SQLite lease repository: start with {@link
 * dev.rivus.agentkit.lease.sqlite.SqliteLeaseRepository#open(java.nio.file.Path)}. All types are
 * null-hostile unless a parameter or return value is marked {@code @Nullable}.
 */
@NullMarked
package dev.rivus.agentkit.lease.sqlite;

import org.jspecify.annotations.NullMarked;
