// Statements and transactions on a libSQL server (sqld) run on streams kept open and reused.
//
// A Hrana stream is one SQLite connection on the server, and a new connection parses the whole
// schema before its first statement. @libsql/client opens a stream for every statement and every
// transaction and closes it after: with this app's schema (about 280 tables, indexes and
// triggers) that parse was about 2 ms of sqld's CPU per statement, four fifths of what a
// statement cost it (0.5 ms on an empty database; measured over the WebSocket, issue 52). A
// stream handed back to the pool is always in autocommit mode (its transaction committed or
// rolled back); one that failed, or whose connection dropped, is closed and never reused.
// Batches, migrations and scripts go through @libsql/client as before.
import * as hrana from '@libsql/hrana-client';
import { LibsqlError, type Client, type InArgs, type InStatement, type IntMode, type ResultSet, type Transaction, type TransactionMode } from '@libsql/core/api';
import { ResultSetImpl, transactionModeToBegin } from '@libsql/core/util';

/** Streams kept open while idle; more are opened while requests run at once, and closed after. */
const MAX_IDLE_STREAMS = 8;

function toHrana(stmt: InStatement, args?: InArgs): hrana.Stmt {
  const [sql, values] = typeof stmt === 'string' ? [stmt, args] : [stmt.sql, stmt.args];
  const out = new hrana.Stmt(sql);
  if (Array.isArray(values)) out.bindIndexes(values as hrana.InValue[]);
  else if (values) for (const [name, value] of Object.entries(values)) out.bindName(name, value as hrana.InValue);
  return out;
}

function toResultSet(rows: hrana.RowsResult): ResultSet {
  return new ResultSetImpl(
    rows.columnNames.map((c) => c ?? ''),
    rows.columnDecltypes.map((c) => c ?? ''),
    rows.rows,
    rows.affectedRowCount,
    rows.lastInsertRowid,
  );
}

function codeOf(e: unknown): string {
  if (e instanceof hrana.ResponseError && e.code !== undefined) return e.code;
  if (e instanceof hrana.ClosedError) return e.cause instanceof hrana.ClientError ? codeOf(e.cause) : 'HRANA_CLOSED_ERROR';
  if (e instanceof hrana.ProtoError) return 'HRANA_PROTO_ERROR';
  if (e instanceof hrana.WebSocketError) return 'HRANA_WEBSOCKET_ERROR';
  if (e instanceof hrana.ProtocolVersionError) return 'PROTOCOL_VERSION_ERROR';
  if (e instanceof hrana.InternalError) return 'INTERNAL_ERROR';
  return 'UNKNOWN';
}

/** The errors @libsql/client raises for the same failure (the codes unavailable.ts reads). */
function asLibsqlError(e: unknown): unknown {
  return e instanceof hrana.ClientError ? new LibsqlError(e.message, codeOf(e), undefined, undefined, e) : e;
}

const closedTx = () => new LibsqlError('Cannot execute statements because the transaction is closed', 'TRANSACTION_CLOSED');

/**
 * `base` (a @libsql/client WebSocket client for `wsUrl`) with execute() and transaction() on
 * reused streams of a connection of its own.
 */
export function withReusedStreams(base: Client, wsUrl: string, authToken?: string, intMode: IntMode = 'number'): Client {
  let conn: hrana.WsClient | null = null;
  let idle: hrana.WsStream[] = [];
  let closed = false;

  const take = (): hrana.WsStream => {
    if (closed) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED');
    if (!conn || conn.closed) {
      // The server went away (a restart, an outage): its streams went with it.
      for (const s of idle) s.close();
      idle = [];
      try {
        conn = hrana.openWs(wsUrl, authToken);
      } catch (e) {
        throw asLibsqlError(e);
      }
      conn.intMode = intMode;
    }
    for (let s = idle.pop(); s; s = idle.pop()) if (!s.closed) return s;
    return conn.openStream();
  };
  const giveBack = (s: hrana.WsStream, from: hrana.WsClient | null) => {
    if (!closed && from === conn && conn && !conn.closed && !s.closed && idle.length < MAX_IDLE_STREAMS) idle.push(s);
    else s.close();
  };

  const execute = async (stmt: InStatement, args?: InArgs): Promise<ResultSet> => {
    const s = take();
    const from = conn;
    try {
      const rows = await s.query(toHrana(stmt, args));
      giveBack(s, from);
      return toResultSet(rows);
    } catch (e) {
      s.close();
      throw asLibsqlError(e);
    }
  };

  const transaction = async (mode: TransactionMode = 'write'): Promise<Transaction> => {
    const s = take();
    const from = conn;
    try {
      await s.run(transactionModeToBegin(mode));
    } catch (e) {
      s.close();
      throw asLibsqlError(e);
    }
    let done = false;
    const finish = async (sql: 'COMMIT' | 'ROLLBACK') => {
      if (done) {
        if (sql === 'COMMIT') throw new LibsqlError('Cannot commit the transaction because it is already closed', 'TRANSACTION_CLOSED');
        return;
      }
      done = true;
      try {
        await s.run(sql);
        giveBack(s, from);
      } catch (e) {
        // Closing the stream ends its connection, and with it whatever the transaction held.
        s.close();
        throw asLibsqlError(e);
      }
    };
    const run = async (stmt: InStatement): Promise<ResultSet> => {
      if (done || s.closed) throw closedTx();
      try {
        return toResultSet(await s.query(toHrana(stmt)));
      } catch (e) {
        throw asLibsqlError(e);
      }
    };
    return {
      execute: run,
      batch: async (stmts: InStatement[]) => {
        const out: ResultSet[] = [];
        for (const stmt of stmts) out.push(await run(stmt));
        return out;
      },
      executeMultiple: async (sql: string) => {
        if (done || s.closed) throw closedTx();
        try {
          await s.sequence(sql);
        } catch (e) {
          throw asLibsqlError(e);
        }
      },
      commit: () => finish('COMMIT'),
      rollback: () => finish('ROLLBACK'),
      close: () => {
        if (done) return;
        done = true;
        s.close();
      },
      get closed() {
        return done || s.closed;
      },
    } as Transaction;
  };

  const client = {
    execute: execute as Client['execute'],
    batch: ((stmts: InStatement[], mode?: TransactionMode) => base.batch(stmts, mode)) as Client['batch'],
    migrate: ((stmts: InStatement[]) => base.migrate(stmts)) as Client['migrate'],
    transaction,
    executeMultiple: (sql: string) => base.executeMultiple(sql),
    sync: () => base.sync(),
    reconnect: async () => {
      conn?.close();
      conn = null;
      idle = [];
      await base.reconnect();
    },
    close: () => {
      closed = true;
      conn?.close();
      idle = [];
      base.close();
    },
    get closed() {
      return closed || base.closed;
    },
    get protocol() {
      return base.protocol;
    },
  };
  return client as unknown as Client;
}
