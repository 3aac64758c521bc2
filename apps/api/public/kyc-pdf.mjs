// The operator console's KYC file page: draws each PDF document into <canvas> elements with Mozilla's
// pdf.js (served from /assets/pdfjs, the installed pdfjs-dist). Our script runs pdf.js; the upload is only
// data to it: no PDF JavaScript (enableScripting off), no forms, no eval (isEvalSupported off), and the
// pages' Content-Security-Policy allows no inline or evaluated script anyway. Without script the page keeps
// its download link (docs/console.md#kyc-review).
import { AnnotationMode, getDocument, GlobalWorkerOptions } from '/assets/pdfjs/pdf.min.mjs';

GlobalWorkerOptions.workerSrc = '/assets/pdfjs/pdf.worker.min.mjs';

/** At most this many pages are drawn; the rest are left to the download. */
const MAX_PAGES = 20;
/** CSS pixels per PDF point at which pages are drawn (then scaled down to the column by the stylesheet). */
const SCALE = 1.5;

function say(holder, text) {
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = text;
  holder.append(note);
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
  });
  try {
    const pdf = await loading.promise;
    const count = Math.min(pdf.numPages, MAX_PAGES);
    for (let number = 1; number <= count; number += 1) {
      const page = await pdf.getPage(number);
      const viewport = page.getViewport({ scale: SCALE });
      const canvas = document.createElement('canvas');
      canvas.className = 'pdf-page';
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `Page ${number} of ${pdf.numPages} of document ${id}`);
      holder.append(canvas);
      // Annotations (form fields, links) are neither drawn nor made live.
      await page.render({ canvas, viewport, annotationMode: AnnotationMode.DISABLE }).promise;
      page.cleanup();
    }
    if (pdf.numPages > MAX_PAGES) {
      say(
        holder,
        `Only the first ${MAX_PAGES} of ${pdf.numPages} pages are shown: download it to read the rest.`,
      );
    }
  } finally {
    holder.removeAttribute('aria-busy');
    await loading.destroy();
  }
  holder.dataset.state = 'drawn';
}

for (const holder of document.querySelectorAll('.pdf-pages[data-pdf]')) {
  holder.querySelector('.pdf-fallback')?.remove();
  drawDocument(holder).catch((error) => {
    holder.removeAttribute('aria-busy');
    holder.dataset.state = 'failed';
    say(holder, `This PDF could not be drawn (${error?.message ?? error}): download it to read it.`);
  });
}
