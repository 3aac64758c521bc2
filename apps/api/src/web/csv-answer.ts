// A CSV export's answer (docs/decisions.md, "Web pages: CSV exports streamed"): the file's chunks piped to
// the reply as they are made, so memory holds a batch, not the file; a download (attachment) that no cache
// keeps. Sent by a @WebFiles controller's handler (@Res()).
import { Readable } from 'node:stream';

import type { FastifyReply } from 'fastify';

/** Sends `chunks` (common/csv.ts's csvChunks) as the file `name` (letters, digits, - _ . only). */
export function sendCsv(reply: FastifyReply, name: string, chunks: AsyncIterable<string>): FastifyReply {
  const safeName = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${safeName}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks, { objectMode: false }));
}
