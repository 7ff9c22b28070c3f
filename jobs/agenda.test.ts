// Backend selection and worker settings (no database: MongoDB cannot run here, so its backend is only
// constructed, never connected).
import { MongoBackend } from '@agendajs/mongo-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../api/logger.js';
import { buildAgendaBackend, chooseAgendaBackend } from './agenda.js';
import { ReleasingPgNotificationChannel } from './pg-notification-channel.js';
import { DEFAULT_MAINTENANCE_CRON, workerSettingsFromEnv } from './worker.js';

const logger = createLogger('silent');
const PG = 'postgresql://postgres@127.0.0.1:5432/crm';

describe('chooseAgendaBackend', () => {
  it('uses PostgreSQL with LISTEN/NOTIFY on a real server', () => {
    expect(chooseAgendaBackend({ databaseUrl: PG, embedded: false })).toEqual({ kind: 'postgres', url: PG, notifications: true });
  });

  it('turns notifications off on the embedded PGlite', () => {
    expect(chooseAgendaBackend({ databaseUrl: PG, embedded: true })).toEqual({ kind: 'postgres', url: PG, notifications: false });
  });

  it('uses MongoDB when AGENDA_MONGODB_URL is set, embedded or not', () => {
    const mongoUrl = 'mongodb://jobs.example:27017/agenda';
    expect(chooseAgendaBackend({ databaseUrl: PG, mongoUrl, embedded: false })).toEqual({ kind: 'mongodb', url: mongoUrl });
    expect(chooseAgendaBackend({ databaseUrl: PG, mongoUrl, embedded: true })).toEqual({ kind: 'mongodb', url: mongoUrl });
    expect(chooseAgendaBackend({ databaseUrl: PG, mongoUrl: '', embedded: false }).kind).toBe('postgres');
  });
});

describe('buildAgendaBackend (constructs, does not connect)', () => {
  it('builds a PostgreSQL backend on our own pool, with or without a notification channel', async () => {
    const real = buildAgendaBackend({ kind: 'postgres', url: PG, notifications: true }, logger);
    expect(real.backend).toBeInstanceOf(PostgresBackend);
    expect(real.notificationChannel).toBeInstanceOf(ReleasingPgNotificationChannel);
    expect(real.backend.ownsConnection).toBe(false); // the pool is ours; we close it
    await real.close();
    const embedded = buildAgendaBackend({ kind: 'postgres', url: PG, notifications: false }, logger);
    expect(embedded.notificationChannel).toBeUndefined();
    await embedded.close();
  });

  it('builds a MongoDB backend from the URL', () => {
    const built = buildAgendaBackend({ kind: 'mongodb', url: 'mongodb://jobs.example:27017/agenda' }, logger);
    expect(built.backend).toBeInstanceOf(MongoBackend);
    expect(built.backend.name).toBe('MongoDB');
    expect(built.backend.ownsConnection).toBe(true);
  });
});

describe('workerSettingsFromEnv', () => {
  it('defaults to daily maintenance at 03:15 in the usage time zone and no separate cleanup', () => {
    expect(workerSettingsFromEnv({}, 'Europe/Berlin')).toEqual({
      maintenanceCron: DEFAULT_MAINTENANCE_CRON,
      cleanupCron: null,
      generationCron: '0 5 * * *',
      timeZone: 'Europe/Berlin',
    });
    expect(DEFAULT_MAINTENANCE_CRON).toBe('15 3 * * *');
  });

  it('reads the cron expressions and "off"', () => {
    expect(workerSettingsFromEnv({ MAINTENANCE_CRON: 'off', CLEANUP_USAGE_CRON: ' 0 4 * * 1 ', GENERATION_CRON: 'off' }, 'UTC')).toEqual({
      maintenanceCron: null,
      cleanupCron: '0 4 * * 1',
      generationCron: null,
      timeZone: 'UTC',
    });
  });
});
