/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.sqlite;

import dev.rivus.agentkit.lease.LeaseWrite;
import dev.rivus.agentkit.lease.RevisionConflict;
import dev.rivus.agentkit.lease.SaveOutcome;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The compare-and-set writes: a batch of writes in one {@code BEGIN IMMEDIATE} transaction with one
 * commit, each write compared on its own. A single save is a batch of one.
 *
 * <p>The transaction commits at {@code synchronous=FULL} if any write raises a generation (or the
 * options sync every write), else at {@code NORMAL}; see {@link SqliteLeaseRepository} for why that
 * is safe. SQLite refuses to change the level inside a transaction, and the writes' intents tell it
 * before the transaction begins.
 *
 * <p>How a batch runs: first every write that can only replace an existing record goes through a
 * prepared {@code UPDATE} that compares the revision itself ({@link Sql#RENEW_RECORD} for renewals,
 * {@link Sql#WRITE_RECORD} for the others), in JDBC batches of at most {@value #CHUNK}, in the
 * order of their keys ({@link KeyOrder}; a key's writes in the order given); an update count of 1
 * means saved. Then, in order, the writes left: a record created earlier in this batch is updated
 * now, an acquisition of a key with no record is inserted over the floor ({@link
 * Sql#INSERT_RECORD}), and what is still left is a conflict, whose stored revision is read for the
 * message. An acquisition's or a release's holder goes to {@code lease_holder} ({@link
 * Sql#WRITE_HOLDER}) right after its record; a renewal writes only the narrow {@code lease} row. A
 * batch of renewals thus costs one statement per write and no read. Thread-safe.
 */
final class Writes {

  /** Writes per JDBC batch: bounds the driver's buffer of bound values, not the transaction. */
  static final int CHUNK = 512;

  private final Database database;
  private final boolean syncEveryWrite;

  Writes(Database database, boolean syncEveryWrite) {
    this.database = database;
    this.syncEveryWrite = syncEveryWrite;
  }

  /**
   * Saves one write.
   *
   * @throws RevisionConflict if the stored revision is another one
   */
  void save(LeaseWrite write) {
    String key = write.key();
    SaveOutcome outcome =
        run(
                List.of(write),
                key,
                "saving lease '" + key + "' over revision " + write.expectedRevision())
            .get(0);
    if (outcome.failure() instanceof RevisionConflict conflict) {
      throw conflict;
    }
  }

  /** Saves a batch; see the class description. */
  List<SaveOutcome> saveAll(List<LeaseWrite> writes) {
    if (writes.isEmpty()) {
      return List.of();
    }
    if (writes.size() == 1) {
      LeaseWrite write = writes.get(0);
      return run(writes, write.key(), "saving lease '" + write.key() + "' in a batch of one");
    }
    return run(writes, null, "saving a batch of " + writes.size() + " writes");
  }

  private List<SaveOutcome> run(List<LeaseWrite> writes, @Nullable String key, String operation) {
    byte[][] keys = new byte[writes.size()][];
    boolean raises = syncEveryWrite;
    for (int i = 0; i < keys.length; i++) {
      LeaseWrite write = writes.get(i);
      keys[i] = KeyBytes.encode(write.key());
      raises |= write.raisesGeneration();
    }
    SyncMode mode = raises ? SyncMode.FULL : SyncMode.NORMAL;
    return database.write(key, operation, mode, session -> transaction(session, writes, keys));
  }

  /** One attempt; run again from the start after a busy result, so it keeps no state outside. */
  private static List<SaveOutcome> transaction(
      Session session, List<LeaseWrite> writes, byte[][] keys) throws SQLException {
    session.begin();
    SaveOutcome[] outcomes = new SaveOutcome[writes.size()];
    new Updates(session, writes, keys, outcomes).run();
    settleTheRest(session, writes, keys, outcomes);
    session.commit();
    return Arrays.asList(outcomes);
  }

  /** The second pass, in order, over the writes no update saved. */
  private static void settleTheRest(
      Session session, List<LeaseWrite> writes, byte[][] keys, SaveOutcome[] outcomes)
      throws SQLException {
    @Nullable Set<String> created = null;
    Rows.@Nullable Floor floor = null;
    for (int i = 0; i < outcomes.length; i++) {
      if (outcomes[i] != null) {
        continue;
      }
      LeaseWrite write = writes.get(i);
      if (created != null && created.contains(write.key()) && updateOne(session, keys[i], write)) {
        outcomes[i] = SaveOutcome.saved(write);
      } else if (write.intent() == LeaseWrite.Intent.ACQUIRE && insert(session, keys[i], write)) {
        outcomes[i] = SaveOutcome.saved(write);
        if (created == null) {
          created = new HashSet<>();
        }
        created.add(write.key());
      } else {
        long stored = Rows.revision(session, keys[i]);
        if (stored == 0) {
          floor = floor != null ? floor : Rows.floor(session);
          stored = floor.expectedRevision();
        }
        // The revision matched, but the record did not fit the write (see Sql.WRITE_RECORD).
        long actual = stored == write.expectedRevision() ? -1 : stored;
        outcomes[i] =
            SaveOutcome.failed(
                write, new RevisionConflict(write.key(), write.expectedRevision(), actual));
      }
    }
  }

  private static boolean updateOne(Session session, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    PreparedStatement update = session.statement(statementFor(write));
    bind(update, keyBytes, write);
    return update.executeUpdate() > 0 && writeHolder(session, keyBytes, write);
  }

  private static boolean insert(Session session, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    PreparedStatement insert = session.statement(Sql.INSERT_RECORD);
    Rows.bindRecord(insert, keyBytes, write);
    return insert.executeUpdate() > 0 && writeHolder(session, keyBytes, write);
  }

  /**
   * Writes the holder of a record just saved, unless the write is a renewal (which keeps it); in
   * the write's transaction, so a record and its holder are never apart.
   */
  private static boolean writeHolder(Session session, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    if (write.intent() != LeaseWrite.Intent.RENEW) {
      PreparedStatement holder = session.statement(Sql.WRITE_HOLDER);
      Rows.bindHolder(holder, keyBytes, write);
      holder.executeUpdate();
    }
    return true;
  }

  static Sql statementFor(LeaseWrite write) {
    return write.intent() == LeaseWrite.Intent.RENEW ? Sql.RENEW_RECORD : Sql.WRITE_RECORD;
  }

  static void bind(PreparedStatement statement, byte[] keyBytes, LeaseWrite write)
      throws SQLException {
    if (write.intent() == LeaseWrite.Intent.RENEW) {
      Rows.bindRenewal(statement, keyBytes, write);
    } else {
      Rows.bindUpdate(statement, keyBytes, write);
    }
  }

  /**
   * The first pass: every write that expects a record, through two JDBC batches (renewals and the
   * others), each flushed when full and at the end. Not thread-safe; one per attempt.
   */
  private static final class Updates {
    private final Session session;
    private final List<LeaseWrite> writes;
    private final byte[][] keys;
    private final SaveOutcome[] outcomes;
    private final Pending renewals = new Pending(Sql.RENEW_RECORD);
    private final Pending others = new Pending(Sql.WRITE_RECORD);

    Updates(Session session, List<LeaseWrite> writes, byte[][] keys, SaveOutcome[] outcomes) {
      this.session = session;
      this.writes = writes;
      this.keys = keys;
      this.outcomes = outcomes;
    }

    void run() throws SQLException {
      int previous = -1;
      for (int i : KeyOrder.of(keys)) {
        LeaseWrite write = writes.get(i);
        if (write.expectedRevision() == 0) {
          continue; // no record has revision 0: only an insert can save it
        }
        boolean renewal = write.intent() == LeaseWrite.Intent.RENEW;
        Pending pending = renewals;
        Pending other = others;
        if (!renewal) {
          pending = others;
          other = renewals;
          if (previous >= 0 && Arrays.equals(keys[previous], keys[i])) {
            // A second write of a key (the port allows one; tolerated): its release compares the
            // holder, which the first one writes only when its batch has run.
            others.flush();
          }
        }
        other.flush(); // keeps the writes in order when intents alternate (rare)
        bind(pending.statement(), keys[i], write);
        pending.add(i);
        previous = i;
      }
      renewals.flush();
      others.flush();
    }

    /** The writes bound to one statement's JDBC batch and not yet run. */
    private final class Pending {
      private final Sql sql;
      private final int[] indexes = new int[CHUNK];
      private int size;

      Pending(Sql sql) {
        this.sql = sql;
      }

      PreparedStatement statement() throws SQLException {
        return session.statement(sql);
      }

      void add(int index) throws SQLException {
        statement().addBatch();
        indexes[size++] = index;
        if (size == CHUNK) {
          flush();
        }
      }

      void flush() throws SQLException {
        if (size == 0) {
          return;
        }
        int[] counts = statement().executeBatch();
        size = 0; // before the holders' writes, which may throw: the batch has run either way
        for (int k = 0; k < counts.length; k++) {
          if (counts[k] > 0) {
            int index = indexes[k];
            LeaseWrite write = writes.get(index);
            writeHolder(session, keys[index], write);
            outcomes[index] = SaveOutcome.saved(write);
          }
        }
      }
    }
  }
}
