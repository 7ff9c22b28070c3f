// REST: uploading a contacts file (the one part of an import GraphQL cannot carry). The file is the raw
// request body — a browser sends the File itself, the CLI streams it from disk — and is stored as it
// arrives (body limit: BODY_LIMIT_OVERRIDES, 200 MB, 413 beyond). Its preview, the import itself,
// progress and undo are GraphQL (api/schema/contact-imports.ts).
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { ContactImport } from '@prisma/client';
import { Hono } from 'hono';
import { requireUser } from '../http/guards.js';
import type { AppEnv } from '../http/request-context.js';
import { receiveUpload } from '../services/contact-imports/index.js';

export const contactImportJson = (i: ContactImport) => ({
  id: i.id,
  /** the import's id for GraphQL (contactImportPreview, startContactImport) */
  importId: encodeGlobalID('ContactImport', i.id),
  fileName: i.fileName,
  format: i.format,
  encoding: i.encoding,
  byteSize: i.byteSize,
  status: i.status,
});

export const contactImportRoutes = new Hono<AppEnv>();

// POST /api/crm/imports?name=contacts.csv   (body: the file)
contactImportRoutes.post('/', async (c) => {
  const ctx = c.var.ctx;
  const user = requireUser(ctx);
  const body = c.req.raw.body;
  const imp = await receiveUpload(ctx.deps, user, { fileName: c.req.query('name'), body: body && chunksOf(body) });
  return c.json(contactImportJson(imp), 201);
});

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    // a reader stopped early (a refused file) lets go of the rest of the body
    if (!ended) await reader.cancel().catch(() => {});
  }
}
