// What a KYC document file may be: its size and its type, judged by its first bytes, not by the type the
// client declared (which is only checked for agreement).
import { createHash } from 'node:crypto';

import { AppError, badRequest, unsupportedMediaType } from '../common/errors.js';

/** 10 MiB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** What clients send when they do not know the type; the content decides then. */
const UNKNOWN_TYPE = 'application/octet-stream';

const SIGNATURES: readonly { readonly type: DocumentType; readonly magic: Buffer }[] = [
  { type: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1') },
  { type: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { type: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
];

const MAX_FILE_NAME_LENGTH = 255;

/** The type the content's first bytes show, or undefined when it is none of the accepted ones. */
export function sniffDocumentType(content: Buffer): DocumentType | undefined {
  return SIGNATURES.find(({ magic }) => content.subarray(0, magic.length).equals(magic))?.type;
}

export interface IncomingFile {
  readonly originalname: string;
  readonly mimetype: string;
  readonly size: number;
  readonly buffer?: Buffer | undefined;
}

export interface CheckedFile {
  readonly fileName: string;
  readonly contentType: DocumentType;
  readonly content: Buffer;
  /** Lowercase hex. */
  readonly sha256: string;
}

/**
 * The file, or the 400/413/415 that says what is wrong with it. `expectedSha256` is the client's digest of
 * the content (the `sha256` query parameter), checked when given and required when `signed`: a request
 * signed with the API key covers its query but not its multipart body, so the digest is what signs the file.
 */
export function checkDocumentFile(
  file: IncomingFile | undefined,
  expectedSha256: string | undefined,
  signed = false,
): CheckedFile {
  if (!file?.buffer) throw badRequest('file is required: send one file in the form field "file"');
  if (signed && expectedSha256 === undefined) {
    throw badRequest(
      'sha256 is required with the API key signature: send the SHA-256 of the file in the query',
    );
  }
  const content = file.buffer;
  if (content.length === 0) throw badRequest('file must not be empty');
  if (content.length > MAX_DOCUMENT_BYTES) throw documentTooLarge();
  const fileName = file.originalname.trim();
  if (fileName.length > MAX_FILE_NAME_LENGTH) {
    throw badRequest(`file name must be at most ${MAX_FILE_NAME_LENGTH} characters`);
  }
  const declared = file.mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  if (declared !== UNKNOWN_TYPE && !(DOCUMENT_TYPES as readonly string[]).includes(declared)) {
    throw unsupportedMediaType(
      `file type ${declared || '(none)'} is not accepted: send ${DOCUMENT_TYPES.join(', ')}`,
    );
  }
  const detected = sniffDocumentType(content);
  if (!detected) {
    throw unsupportedMediaType(
      `file content is not ${DOCUMENT_TYPES.join(', ')} (checked by its first bytes)`,
    );
  }
  if (declared !== UNKNOWN_TYPE && declared !== detected) {
    throw unsupportedMediaType(`file is declared ${declared} but its content is ${detected}`);
  }
  const sha256 = createHash('sha256').update(content).digest('hex');
  if (expectedSha256 !== undefined && expectedSha256 !== sha256) {
    throw badRequest(`sha256 does not match the file: its content has the SHA-256 ${sha256}`);
  }
  return { fileName: fileName || 'document', contentType: detected, content, sha256 };
}

export function documentTooLarge(): AppError {
  return new AppError('payload_too_large', `file must be at most ${MAX_DOCUMENT_BYTES} bytes (10 MiB)`);
}
