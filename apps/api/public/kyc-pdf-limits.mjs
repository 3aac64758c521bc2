// What the console's PDF viewer (kyc-pdf.mjs) spends on one KYC document at most, defined once here and
// listed in docs/console.md#kyc-review. An upload is any bytes an organisation sends: a megabyte of
// compressed drawing operators or pages of 200 inches a side must cost the reviewer's tab a bounded amount
// of memory and time, and past a bound the page says "too large to preview" and offers the download.

/** CSS pixels per PDF point at which a page is drawn when it fits the caps below. */
export const SCALE = 1.5;

/** A page's canvas is at most this many pixels on its long side (the page is drawn smaller to fit). */
export const MAX_CANVAS_SIDE = 4096;

/** And at most this many pixels in all (16 MiB of RGBA): a US letter page at SCALE is 1.1 million. */
export const MAX_CANVAS_PIXELS = 4 * 1024 * 1024;

/** At most this many pages of a document are drawn; the page says how many more the download has. */
export const MAX_PAGES = 10;

/**
 * An image inside a PDF larger than this many pixels is left out of the drawing by pdf.js (a 600 dpi A4
 * scan is 34.8 million); a smaller one larger than a canvas is scaled down in pdf.js's worker.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * At most this many drawing operators of a document are taken from pdf.js's worker (a page of text is a
 * few thousand): each costs the tab's heap about a hundred bytes until the page is drawn.
 */
export const MAX_OPERATORS = 1_000_000;

/**
 * A document not drawn this many milliseconds after its bytes arrived is too large to preview: its drawing
 * is cancelled and pdf.js's worker for it stopped.
 */
export const DEADLINE_MS = 5_000;
