// Sends a contacts file (the browser's File itself, never read into memory by the page) as the raw body
// of POST /api/crm/imports, with upload progress (XMLHttpRequest: fetch reports none).
import { GraphQLClientError } from '../../../client/errors.js';

export interface UploadedFile {
  id: string;
  importId: string;
  fileName: string;
  format: string;
  byteSize: number;
}

export function uploadContactsFile(file: File, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/crm/imports?name=${encodeURIComponent(file.name)}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      const body = xhr.response as (UploadedFile & { error?: string; message?: string }) | null;
      if (xhr.status === 201 && body?.importId) return resolve(body);
      const code = xhr.status === 413 ? 'PAYLOAD_TOO_LARGE' : xhr.status === 401 ? 'UNAUTHENTICATED' : xhr.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_USER_INPUT';
      reject(new GraphQLClientError(body?.message ?? body?.error ?? `The upload failed (HTTP ${xhr.status})`, code, body?.error ? { title: body.error } : {}, [], xhr.status));
    };
    xhr.onerror = () => reject(new GraphQLClientError('The file could not be sent: the connection to the server failed', 'NETWORK_ERROR'));
    xhr.onabort = () => reject(new GraphQLClientError('The upload was cancelled', 'BAD_USER_INPUT'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
