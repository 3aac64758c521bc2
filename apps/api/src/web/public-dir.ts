import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** apps/api/public, from src/web (tests) and dist/web (the build) alike: the assets of the web areas. */
export const PUBLIC_DIR = join(__dirname, '..', '..', 'public');

/**
 * Mozilla's pdf.js as installed (pdfjs-dist, not copied into git), served under the assets path: the
 * console draws a KYC file's PDFs with it (public/kyc-pdf.mjs). Only these two files of its build.
 */
export const PDFJS_DIR = dirname(
  createRequire(join(PUBLIC_DIR, '..', 'package.json')).resolve('pdfjs-dist/build/pdf.min.mjs'),
);
export const PDFJS_FILES: readonly string[] = ['pdf.min.mjs', 'pdf.worker.min.mjs'];
