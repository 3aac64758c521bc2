// The client's `kyc` group: a user's KYC status, document uploads and the KYC form.
import { createHash } from 'node:crypto';

import type { RequestOptions } from '../transport.js';
import type { KycForm, KycStatus, UploadKycDocumentParams } from '../types.js';
import { path, requireId, type Call } from './call.js';

export class KycResource {
  constructor(private readonly call: Call) {}

  get(orgUserId: string, options?: RequestOptions): Promise<KycStatus> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId), 'kyc'), idempotent: true },
      options,
    );
  }

  /**
   * POST .../kyc/documents/ (multipart, field `file`). The file's SHA-256 goes in the signed query, so
   * the signature covers the file and the api checks it arrived intact.
   */
  async uploadDocument(
    orgUserId: string,
    params: UploadKycDocumentParams,
    options?: RequestOptions,
  ): Promise<KycStatus> {
    const bytes =
      params.file instanceof Uint8Array ? params.file : new Uint8Array(await params.file.arrayBuffer());
    const type =
      params.contentType ??
      (params.file instanceof Blob && params.file.type !== ''
        ? params.file.type
        : 'application/octet-stream');
    const form = new FormData();
    form.append('docCategory', params.docCategory);
    form.append('docSubCategory', params.docSubCategory);
    form.append('file', new Blob([bytes], { type }), params.fileName ?? 'document');
    return this.call(
      {
        method: 'POST',
        path: path('user', requireId('orgUserId', orgUserId), 'kyc', 'documents'),
        query: { sha256: createHash('sha256').update(bytes).digest('hex') },
        body: { kind: 'multipart', form },
        idempotent: false,
      },
      options,
    );
  }

  submitForm(orgUserId: string, form: KycForm, options?: RequestOptions): Promise<KycStatus> {
    return this.call(
      {
        method: 'POST',
        path: path('user', requireId('orgUserId', orgUserId), 'kyc', 'form'),
        body: { kind: 'json', value: form },
        idempotent: false,
      },
      options,
    );
  }
}
