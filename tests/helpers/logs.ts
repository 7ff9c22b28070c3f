// A logger whose output is kept for assertions: the raw text and the parsed JSON lines.
import { Writable } from 'node:stream';
import { createLogger } from '../../api/logger.js';

export function captureLogger(level: Parameters<typeof createLogger>[0] = 'info') {
  const text: string[] = [];
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text.push(String(chunk));
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { logger: createLogger(level, stream), text, lines };
}
