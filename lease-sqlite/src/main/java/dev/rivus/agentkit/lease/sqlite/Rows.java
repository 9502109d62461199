package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.HolderIdentity;
import dev.rivus.agentkit.lease.LeaseSnapshot;
import dev.rivus.agentkit.lease.LeaseState;
import dev.rivus.agentkit.lease.ProcessIdentity;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Reads and writes lease rows; the only place that knows the columns of {@code lease}. */
final class Rows {

  /**
   * The holder named by a floor snapshot: a placeholder, since the real last holder was pruned. A
   * floor is a tombstone, so no one judges this holder's liveness.
   */
  static final HolderIdentity PRUNED =
      new HolderIdentity(new ProcessIdentity("(pruned)", null, null, 1, null), "(pruned)");

  private Rows() {}

  /** The stored record of a key, read inside or outside a transaction. */
  static Optional<LeaseSnapshot> select(Session session, String key, byte[] keyBytes)
      throws SQLException {
    PreparedStatement select = session.statement(Sql.SELECT_RECORD);
    select.setBytes(1, keyBytes);
    try (ResultSet row = select.executeQuery()) {
      return row.next() ? Optional.of(snapshot(key, row)) : Optional.empty();
    }
  }

  /** Every stored record; floors are not records and are not listed. */
  static List<LeaseSnapshot> selectAll(Session session) throws SQLException {
    List<LeaseSnapshot> all = new ArrayList<>();
    try (ResultSet row = session.statement(Sql.SELECT_ALL).executeQuery()) {
      while (row.next()) {
        all.add(snapshot(KeyBytes.decode(row.getBytes(12)), row));
      }
    }
    return all;
  }

  /**
   * Maps the columns of {@link Sql#SELECT_RECORD}.
   *
   * @throws IllegalArgumentException if a stored value breaks a rule of the snapshot (a damaged
   *     row)
   */
  private static LeaseSnapshot snapshot(String key, ResultSet row) throws SQLException {
    ProcessIdentity process =
        new ProcessIdentity(
            row.getString(4), row.getString(5), row.getString(6), row.getLong(7), row.getString(8));
    return new LeaseSnapshot(
        key,
        row.getLong(1),
        row.getLong(2),
        LeaseState.valueOf(row.getString(3)),
        new HolderIdentity(process, row.getString(9)),
        Instant.ofEpochSecond(row.getLong(10), row.getLong(11)));
  }

  /**
   * The generation floor left by pruning, as a snapshot of the key, or empty if nothing was pruned.
   */
  static Optional<LeaseSnapshot> floor(Session session, String key) throws SQLException {
    try (ResultSet row = session.statement(Sql.SELECT_FLOOR).executeQuery()) {
      long floor = row.next() ? row.getLong(1) : 0;
      if (floor <= 0) {
        return Optional.empty();
      }
      Instant raisedAt = Instant.ofEpochSecond(row.getLong(2));
      return Optional.of(new LeaseSnapshot(key, floor, 0, LeaseState.RELEASED, PRUNED, raisedAt));
    }
  }

  static void insert(Session session, byte[] keyBytes, LeaseSnapshot snapshot) throws SQLException {
    write(session.statement(Sql.INSERT_RECORD), keyBytes, snapshot);
  }

  static void update(Session session, byte[] keyBytes, LeaseSnapshot snapshot) throws SQLException {
    write(session.statement(Sql.UPDATE_RECORD), keyBytes, snapshot);
  }

  private static void write(PreparedStatement statement, byte[] keyBytes, LeaseSnapshot snapshot)
      throws SQLException {
    ProcessIdentity process = snapshot.holder().process();
    statement.setLong(1, snapshot.generation());
    statement.setLong(2, snapshot.revision());
    statement.setString(3, snapshot.state().name());
    statement.setString(4, process.host());
    setNullable(statement, 5, process.bootId());
    setNullable(statement, 6, process.pidNamespace());
    statement.setLong(7, process.pid());
    setNullable(statement, 8, process.processStart());
    statement.setString(9, snapshot.holder().handleId());
    statement.setLong(10, snapshot.updatedAt().getEpochSecond());
    statement.setLong(11, snapshot.updatedAt().getNano());
    statement.setBytes(12, keyBytes);
    statement.executeUpdate();
  }

  private static void setNullable(PreparedStatement statement, int index, @Nullable String value)
      throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.VARCHAR);
    } else {
      statement.setString(index, value);
    }
  }
}
