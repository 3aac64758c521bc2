// How the console answers a KYC document's bytes (docs/console.md#kyc-review): an upload must never run as
// a page of ours. The type sent is the one its first bytes show, and only when it is one the upload
// accepts and agrees with the stored type (PDF, JPEG, PNG); anything else goes as application/octet-stream,
// as an attachment. Always with nosniff, and a Content-Security-Policy of its own whose `sandbox` gives the
// document a unique origin with no script, forms or plugins, and which loads nothing.
import type { KycDocument } from '@svc/db';
import type { FastifyReply } from 'fastify';

import { DOCUMENT_TYPES, type DocumentType, sniffDocumentType } from '../kyc/document-file.js';

/** The policy of every document answer (the console's pages frame it: frame-ancestors 'self'). */
export const DOCUMENT_CSP = "sandbox; default-src 'none'; img-src 'self'; frame-ancestors 'self'";

const EXTENSIONS: Readonly<Record<DocumentType, string>> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/** The type a document is served as, or null when it goes as an attachment of no type. */
export function servedType(document: Pick<KycDocument, 'contentType' | 'content'>): DocumentType | null {
  const sniffed = sniffDocumentType(document.content);
  const stored = document.contentType.toLowerCase();
  return sniffed !== undefined && sniffed === stored && (DOCUMENT_TYPES as readonly string[]).includes(stored)
    ? sniffed
    : null;
}

/** Whether the console shows it inline as an image (<img>), or else framed (PDF) or only linked. */
export function isImage(type: DocumentType | null): boolean {
  return type === 'image/jpeg' || type === 'image/png';
}

/** Sends the document; `download` asks for an attachment even when it could be shown. */
export function sendDocument(reply: FastifyReply, document: KycDocument, download: boolean): FastifyReply {
  const type = servedType(document);
  // The file name the organisation gave is not echoed into a header: a name of our own, by id and type.
  const name = `kyc-document-${document.id}.${type ? EXTENSIONS[type] : 'bin'}`;
  const inline = type !== null && !download;
  return reply
    .code(200)
    .header('content-type', type ?? 'application/octet-stream')
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${name}"`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', DOCUMENT_CSP)
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(document.content);
}
