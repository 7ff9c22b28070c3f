// The jobs queue as an API process sees it: Agenda on the same backend as the workers, connected but
// never started, so it only inserts jobs. Agenda connects its notification channel in start() only;
// it is connected here so that a queued job wakes the workers at once (PostgreSQL NOTIFY) instead of
// at their next poll (JOBS_PROCESS_EVERY). Used by API processes with separate workers (RUN_WORKER=false).
import { hostname } from 'node:os';
import type { JobQueue } from '../api/services/deps.js';
import { createAgenda, type CreateAgendaOptions } from './agenda.js';

/** The part of Agenda's notification channel used here (agenda 6.2.6). */
interface NotificationChannelInternals {
  state: string;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
}

export interface ClosableJobQueue extends JobQueue {
  close(): Promise<void>;
}

export async function createJobQueue(opts: Pick<CreateAgendaOptions, 'databaseUrl' | 'mongoUrl' | 'embedded' | 'logger'>): Promise<ClosableJobQueue> {
  const handle = await createAgenda({ ...opts, poolSize: 2, name: `${hostname()}-${process.pid}-api` });
  const channel = (handle.agenda as unknown as { notificationChannel?: NotificationChannelInternals }).notificationChannel;
  if (channel && channel.state !== 'connected') await channel.connect();
  return {
    async enqueue(name, data) {
      await handle.agenda.now(name, data);
    },
    async close() {
      await channel?.disconnect().catch(() => {});
      await handle.stop({ timeoutMs: 0 });
    },
  };
}
