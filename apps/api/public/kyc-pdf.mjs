// The operator console's KYC file page: draws each PDF document into <canvas> elements with Mozilla's
// pdf.js (served from /assets/pdfjs, the installed pdfjs-dist). Our script runs pdf.js; the upload is only
// data to it: no PDF JavaScript (enableScripting off), no forms, no eval (isEvalSupported off), and the
// pages' Content-Security-Policy allows no inline or evaluated script anyway. Without script the page keeps
// its download link (docs/console.md#kyc-review).
//
// What one document may cost the tab is bounded (kyc-pdf-limits.mjs): each page's canvas is drawn small
// enough to fit the caps, only the first pages are drawn, and past a count of drawing operators or a
// deadline the drawing is cancelled, pdf.js's worker for the document stopped, and the page says the
// document is too large to preview.
import { AnnotationMode, getDocument, GlobalWorkerOptions } from '/assets/pdfjs/pdf.min.mjs';

import {
  DEADLINE_MS,
  MAX_CANVAS_PIXELS,
  MAX_CANVAS_SIDE,
  MAX_IMAGE_PIXELS,
  MAX_OPERATORS,
  MAX_PAGES,
  SCALE,
} from './kyc-pdf-limits.mjs';

GlobalWorkerOptions.workerSrc = '/assets/pdfjs/pdf.worker.min.mjs';

/** Why a document's drawing was stopped: it would have cost more than a limit allows (the message's). */
class TooLarge extends Error {}

function say(holder, text) {
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = text;
  holder.append(note);
  return note;
}

/** The scale that draws `page` at SCALE, or smaller when its canvas would pass a cap. */
function scaleOf(page) {
  const { width, height } = page.getViewport({ scale: 1 });
  return Math.min(
    SCALE,
    MAX_CANVAS_SIDE / Math.max(width, height),
    Math.sqrt(MAX_CANVAS_PIXELS / (width * height)),
  );
}

async function drawDocument(holder) {
  holder.setAttribute('aria-busy', 'true');
  const url = holder.dataset.pdf;
  const id = holder.dataset.documentId;
  const answer = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
  if (!answer.ok) throw new Error(`the document answered ${answer.status}`);
  const data = new Uint8Array(await answer.arrayBuffer());
  const loading = getDocument({
    data,
    isEvalSupported: false,
    enableScripting: false,
    disableWorkerRendering: true,
    maxImageSize: MAX_IMAGE_PIXELS,
    canvasMaxAreaInBytes: MAX_CANVAS_PIXELS * 4,
  });

  // Stopping cancels the page being drawn and destroys the loading task, which terminates pdf.js's worker
  // for this document (a parse in progress with it); every wait below gives way to the stop at once.
  const stop = Promise.withResolvers();
  stop.promise.catch(() => {});
  let drawing = null;
  let stopped = false;
  const stopWith = (error) => {
    if (stopped) return;
    stopped = true;
    stop.reject(error);
    drawing?.cancel();
    loading.destroy().catch(() => {});
  };
  const unlessStopped = (promise) => {
    promise.catch(() => {});
    return Promise.race([promise, stop.promise]);
  };
  const deadline = setTimeout(() => stopWith(new TooLarge(`past ${DEADLINE_MS} ms`)), DEADLINE_MS);
  // Operators taken from the worker for the pages before the one being drawn, and for that one.
  let operatorsBefore = 0;
  let operatorsOfPage = 0;
  let tooMany = false;
  const withinOperators = (index, operatorList) => {
    operatorsOfPage = operatorList.fnArray.length;
    if (stopped || tooMany) return false;
    if (operatorsBefore + operatorsOfPage <= MAX_OPERATORS) return true;
    tooMany = true;
    // Not from inside pdf.js's drawing loop: once it has returned.
    queueMicrotask(() => stopWith(new TooLarge(`past ${MAX_OPERATORS} drawing operators`)));
    return false;
  };

  try {
    const pdf = await unlessStopped(loading.promise);
    const count = Math.min(pdf.numPages, MAX_PAGES);
    for (let number = 1; number <= count; number += 1) {
      const page = await unlessStopped(pdf.getPage(number));
      const viewport = page.getViewport({ scale: scaleOf(page) });
      const canvas = document.createElement('canvas');
      canvas.className = 'pdf-page';
      // Rounded down: the caps hold for the canvas, the page's last fraction of a pixel is lost.
      canvas.width = Math.max(1, Math.floor(viewport.width));
      canvas.height = Math.max(1, Math.floor(viewport.height));
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `Page ${number} of ${pdf.numPages} of document ${id}`);
      holder.append(canvas);
      // Annotations (form fields, links) are neither drawn nor made live.
      drawing = page.render({
        canvas,
        viewport,
        annotationMode: AnnotationMode.DISABLE,
        operationsFilter: withinOperators,
      });
      await unlessStopped(drawing.promise);
      drawing = null;
      operatorsBefore += operatorsOfPage;
      operatorsOfPage = 0;
      page.cleanup();
    }
    if (pdf.numPages > MAX_PAGES) {
      const more = pdf.numPages - MAX_PAGES;
      say(holder, `${more} more page${more === 1 ? '' : 's'}: download it to see them.`);
    }
    holder.dataset.state = 'drawn';
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    tooLarge(holder, url);
  } finally {
    clearTimeout(deadline);
    holder.removeAttribute('aria-busy');
    stopped = true;
    await loading.destroy();
  }
}

/** The canvases drawn so far go (a page half drawn would mislead); the download stays. */
function tooLarge(holder, url) {
  for (const canvas of holder.querySelectorAll('canvas')) {
    canvas.width = 0;
    canvas.height = 0;
    canvas.remove();
  }
  const note = say(holder, 'This PDF is too large to preview: ');
  const link = document.createElement('a');
  link.href = `${url}?download=1`;
  link.textContent = 'download it';
  note.append(link, ' to read it.');
  holder.dataset.state = 'too-large';
}

for (const holder of document.querySelectorAll('.pdf-pages[data-pdf]')) {
  holder.querySelector('.pdf-fallback')?.remove();
  drawDocument(holder).catch((error) => {
    holder.removeAttribute('aria-busy');
    holder.dataset.state = 'failed';
    say(holder, `This PDF could not be drawn (${error?.message ?? error}): download it to read it.`);
  });
}
