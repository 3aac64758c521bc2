// Test support for the console's KYC pages: an organisation whose users wait for a decision, made through
// the api as the organisation would (documents and form), with documents meant to run script.
import { deflateSync } from 'node:zlib';

import type { OperatorRole } from '@svc/db';
import type { APIRequestContext, Page } from 'playwright-core';

import type { ApiFixture, OrgSession } from './app-fixture.js';
import { pngImage } from './console-browser.js';
import type { EnrolledOperator } from './enrolled-operator.js';

/** A page of a PDF made by `pdfFile`: its size in points and its content stream, deflated if asked. */
export interface PdfPage {
  readonly width: number;
  readonly height: number;
  readonly content: Buffer;
  readonly deflate?: boolean;
}

/** A valid PDF of these pages (no resources), with a correct xref table. */
export function pdfFile(pages: readonly PdfPage[]): Buffer {
  const kids = pages.map((_, index) => `${3 + 2 * index} 0 R`).join(' ');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`),
  ];
  pages.forEach((page, index) => {
    const box = `[0 0 ${page.width} ${page.height}]`;
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox ${box} /Contents ${4 + 2 * index} 0 R /Resources << >> >>`,
      ),
    );
    const data = page.deflate ? deflateSync(page.content) : page.content;
    const filter = page.deflate ? ' /Filter /FlateDecode' : '';
    objects.push(
      Buffer.concat([
        Buffer.from(`<< /Length ${data.length}${filter} >>\nstream\n`),
        data,
        Buffer.from('\nendstream'),
      ]),
    );
  });
  const parts = [Buffer.from('%PDF-1.7\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  tail += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  return Buffer.concat([...parts, Buffer.from(tail)]);
}

/** A valid one-page PDF (US letter) whose page is a black filled rectangle. */
export function onePagePdf(): Buffer {
  return pdfFile([{ width: 612, height: 792, content: Buffer.from('0 0 0 rg 50 50 200 100 re f\n') }]);
}

export const PDF = onePagePdf();
export const PHOTO = pngImage(240, 150, [40, 110, 180]);
/** Passes the upload's check (it starts like a PDF) but is an HTML page with script after that. */
export const POLYGLOT = Buffer.from(
  '%PDF-1.7\n<html><body><script>alert("polyglot")</script><img src=x onerror="alert(2)"></body></html>',
  'latin1',
);
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert("svg")</script></svg>',
);

/** The policy every document answer carries (console/document-answer.ts). */
export const DOCUMENT_CSP = "sandbox; default-src 'none'; img-src 'self'; frame-ancestors 'self'";

/** An operator of each role, enrolled with password and TOTP. */
export async function enrolEveryRole(api: ApiFixture): Promise<Record<OperatorRole, EnrolledOperator>> {
  const operators = {} as Record<OperatorRole, EnrolledOperator>;
  for (const role of ['ADMIN', 'KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'] as const) {
    operators[role] = await api.enrolOperator(
      role,
      `console-${role.toLowerCase().replace('_', '-')}@ops.test`,
    );
  }
  return operators;
}

/** A user of `org` whose documents are uploaded and form submitted: waiting for a decision. */
export async function submittedKyc(
  org: OrgSession,
  orgUserId: string,
  documents: { name: string; type: string; content: Buffer }[],
): Promise<void> {
  const created = await org.bearer('POST', '/api/v1/user/', { body: { orgUserId, kyc: false, tnc: true } });
  expect(created.status).toBe(200);
  for (const document of documents) {
    const form = new FormData();
    form.append('docCategory', 'IDENTITY');
    form.append('docSubCategory', 'PASSPORT');
    form.append('file', new Blob([new Uint8Array(document.content)], { type: document.type }), document.name);
    const upload = await fetch(`${org.fixture.baseUrl}/api/v1/user/${orgUserId}/kyc/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await org.token(['MANAGE_USERS:WRITE'])}` },
      body: form,
    });
    expect([document.name, upload.status]).toEqual([document.name, 200]);
  }
  const submitted = await org.bearer('POST', `/api/v1/user/${orgUserId}/kyc/form`, {
    body: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1990-04-01',
      nationality: 'GB',
      address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
    },
  });
  expect(submitted.status).toBe(200);
}

/**
 * The queue both KYC browser tests read: `waiting-longest` (a PDF, waiting two days and three hours),
 * `applicant` (a photo and a PDF) and `hostile` (a PDF/HTML polyglot, and an SVG with script stored as if
 * an older upload check had let it in).
 */
export async function seedQueue(org: OrgSession): Promise<void> {
  const api = org.fixture;
  await submittedKyc(org, 'waiting-longest', [
    { name: 'passport.pdf', type: 'application/pdf', content: PDF },
  ]);
  await submittedKyc(org, 'applicant', [
    { name: 'photo.png', type: 'image/png', content: PHOTO },
    { name: 'passport.pdf', type: 'application/pdf', content: PDF },
  ]);
  await submittedKyc(org, 'hostile', [{ name: 'tricky.pdf', type: 'application/pdf', content: POLYGLOT }]);
  await api.rows(
    `INSERT INTO kyc_documents (org_id, user_id, doc_category, doc_sub_category, file_name, content_type, size_bytes, sha256, content)
     SELECT org_id, id, 'IDENTITY', 'PASSPORT', 'face.svg', 'image/svg+xml', $2, 'none', $3 FROM users WHERE org_user_id = $1`,
    ['hostile', SVG.length, SVG],
  );
  // Its form came in two days and three hours earlier: its KYC_FORM_SUBMITTED event then, and its expiry,
  // set when the form came in, as much earlier.
  await api.rows(
    "UPDATE users SET kyc_expires_at = kyc_expires_at - interval '2 days 3 hours' WHERE org_user_id = 'waiting-longest'",
  );
  await api.rows(
    `UPDATE events SET created_at = created_at - interval '2 days 3 hours'
      WHERE event_type = 'KYC_FORM_SUBMITTED' AND data->>'orgUserId' = 'waiting-longest'`,
  );
}

/** The user's KYC state as stored. */
export async function kycStateOf(api: ApiFixture, orgUserId: string): Promise<string | undefined> {
  const [row] = await api.rows<{ kyc_state: string }>('SELECT kyc_state FROM users WHERE org_user_id = $1', [
    orgUserId,
  ]);
  return row?.kyc_state;
}

/** A form's CSRF token on the page the tab shows (the sign-out form has one on every page). */
export const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();

/** A form posted from the console's origin (with the browser's cookies), without following the redirect. */
export function postForm(
  api: ApiFixture,
  request: APIRequestContext,
  url: string,
  form: Record<string, string>,
) {
  return request.post(url, { form, headers: { origin: api.baseUrl }, maxRedirects: 0 });
}
