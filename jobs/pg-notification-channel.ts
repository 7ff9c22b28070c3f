// Agenda's PostgreSQL LISTEN/NOTIFY channel holds one pooled connection for LISTEN. Its own code
// (@agendajs/postgres-backend 3.0.6, pinned) releases that connection only when it dies while the
// channel is 'connected'. Two paths leaked it, checked out for good, so the pool's end() (the
// worker's and the app's close) waited forever:
// - connect() failing after it got the connection (the LISTEN statement fails because PostgreSQL
//   terminated the backend, 57P01): it schedules a reconnect, which takes another connection and
//   forgets the first;
// - disconnect() while a (re)connect is waiting for its connection: that connect then LISTENs on a
//   connection nobody will release.
// This subclass releases (destroys) the connection on both paths. The connection's 'error' events
// are handled by the channel's own listener and by the pool's guard (api/db/pg-errors.ts).
import { PostgresNotificationChannel, type PostgresNotificationChannelConfig } from '@agendajs/postgres-backend';
import type pg from 'pg';

/** The parent's private state used here (pinned @agendajs/postgres-backend 3.0.6). */
interface ChannelInternals {
  listenClient?: pg.PoolClient;
}

export class ReleasingPgNotificationChannel extends PostgresNotificationChannel {
  /** Bumped by disconnect(): a connect() that started before it must not keep its connection. */
  private epoch = 0;

  constructor(config: PostgresNotificationChannelConfig & { pool: pg.Pool }) {
    super(config);
  }

  override async connect(): Promise<void> {
    const epoch = this.epoch;
    try {
      await super.connect();
    } catch (err) {
      this.dropListenClient(err);
      if (epoch !== this.epoch) this.clearReconnect(); // closed meanwhile: no reconnect
      throw err;
    }
    if (epoch !== this.epoch) {
      this.dropListenClient(true);
      this.clearReconnect();
      this.setState('disconnected');
    }
  }

  override async disconnect(): Promise<void> {
    this.epoch++;
    await super.disconnect();
  }

  /** Hands the LISTEN connection back to the pool to be destroyed (a truthy argument). */
  private dropListenClient(reason: unknown) {
    const internals = this as unknown as ChannelInternals;
    const client = internals.listenClient;
    if (!client) return;
    internals.listenClient = undefined;
    try {
      client.release(reason instanceof Error ? reason : true);
    } catch {
      // already released
    }
  }
}
