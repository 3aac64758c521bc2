// A user's KYC file: where it stands and its history, the form as labelled fields, the documents shown inline (images as <img>, PDFs drawn
// into canvases by our own script with pdf.js, public/kyc-pdf.mjs; anything else only as a download;
// console/document-answer.ts serves them), and the three decisions with their text.
import type { KycView } from '../../kyc/kyc.view.js';
import { PostForm } from '../../web/components/forms.js';
import type { KycHistoryItem } from '../../kyc/kyc.repository.js';
import { KycHistory } from '../../web/components/kyc-history.js';
import { Facts, Notice, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ASSETS_PATH } from '../../web/web-areas.js';
import { isImage } from '../document-answer.js';
import { KYC_QUEUE } from '../nav.js';
import { ConsolePage } from './console-page.js';
import { KycFormFields } from './kyc-form.js';
import { ageText, kycFileHref } from './kyc-queue.js';

export interface FileDocument {
  readonly view: KycView['documents'][number];
  /** The type it is served as (console/document-answer.ts), null when only as a download. */
  readonly served: 'application/pdf' | 'image/jpeg' | 'image/png' | null;
}

export function KycFilePage(props: {
  readonly ctx: ConsoleContext;
  readonly orgName: string;
  readonly kyc: KycView;
  readonly documents: readonly FileDocument[];
  readonly submittedAt: Date | null;
  readonly history: readonly KycHistoryItem[];
  /** The decision forms' errors, with what was typed. */
  readonly errors?: readonly string[] | undefined;
  readonly typed?: Readonly<Record<string, string>> | undefined;
}) {
  const { kyc, ctx } = props;
  const base = kycFileHref(kyc.orgId, kyc.orgUserId);
  const waiting = kyc.kycState === 'KYC_FORM_SUBMITTED';
  const typed = props.typed ?? {};
  return (
    <ConsolePage ctx={ctx} title={`KYC of ${kyc.orgUserId}`} section={KYC_QUEUE}>
      {props.errors && props.errors.length > 0 && (
        <Notice kind="error">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </Notice>
      )}
      <p>
        <a href={KYC_QUEUE}>Back to the queue</a>
      </p>
      <section aria-labelledby="state-heading">
        <h2 id="state-heading">Where it stands</h2>
        <Facts
          items={[
            ['Organisation', `${props.orgName} (${kyc.orgId})`],
            ['User', kyc.orgUserId],
            ['KYC state', kyc.kycState],
            ['User status', kyc.userStatus],
            [
              'Waiting',
              props.submittedAt && waiting ? (
                <>
                  {ageText(props.submittedAt)} (since <Time iso={props.submittedAt.toISOString()} />)
                </>
              ) : (
                'not waiting for a decision'
              ),
            ],
            ['Expires', <Time iso={kyc.expiresAt} empty="nothing is waiting" />],
            [
              'Last decision',
              kyc.review
                ? `${kyc.review.eventType}${kyc.review.message ? `: ${kyc.review.message}` : ''}`
                : 'none yet',
            ],
          ]}
        />
      </section>
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <KycHistory history={props.history} />
      </section>
      <section aria-labelledby="form-heading">
        <h2 id="form-heading">Form</h2>
        <KycFormFields form={kyc.form} />
      </section>
      <section aria-labelledby="documents-heading">
        <h2 id="documents-heading">Documents</h2>
        {props.documents.length === 0 && <p class="empty">No document uploaded.</p>}
        {props.documents.map(({ view, served }, index) => {
          const src = `${base}/documents/${view.id}`;
          const label = `Document ${index + 1}: ${view.docCategory} ${view.docSubCategory}`;
          return (
            <article class="document" key={view.id} aria-label={label}>
              <h3>{label}</h3>
              <Facts
                items={[
                  ['File name', view.fileName],
                  ['Type', served ?? `${view.contentType} (not shown: its content is not what it says)`],
                  ['Size', `${Math.ceil(view.sizeBytes / 1024)} KB`],
                  ['SHA-256', <code class="wrap">{view.sha256}</code>],
                  ['Uploaded', <Time iso={view.createdAt} />],
                ]}
              />
              {isImage(served) ? (
                <img class="document-view" src={src} alt={`${label}, ${view.fileName}`} />
              ) : served === 'application/pdf' ? (
                <div class="pdf-pages" data-pdf={src} data-document-id={view.id}>
                  <p class="hint pdf-fallback">
                    This PDF is drawn by the page's script; without it, download it.
                  </p>
                </div>
              ) : null}
              <p>
                <a href={`${src}?download=1`}>Download {view.fileName}</a>
              </p>
            </article>
          );
        })}
        {props.documents.some(({ served }) => served === 'application/pdf') && (
          <script type="module" src={`${ASSETS_PATH}/kyc-pdf.mjs`} />
        )}
      </section>
      <section aria-labelledby="decide-heading">
        <h2 id="decide-heading">Decision</h2>
        {!waiting ? (
          <p class="empty">
            Nothing to decide: a decision is taken once the form is submitted (the state is {kyc.kycState}).
          </p>
        ) : (
          <div class="decisions">
            <PostForm action={`${base}/approve`} csrf={ctx.csrf} class="stacked" label="Approve">
              <h3>Approve</h3>
              <label for="note">
                Note <span class="hint">(optional; the organisation sees it)</span>
                <textarea id="note" name="note" rows={2} maxLength={1000}>
                  {typed.note ?? ''}
                </textarea>
              </label>
              <button type="submit">Approve</button>
            </PostForm>
            <PostForm
              action={`${base}/request-information`}
              csrf={ctx.csrf}
              class="stacked"
              label="Request information"
            >
              <h3>Request information</h3>
              <label for="message">
                What the user must provide <span class="hint">(the organisation sees it)</span>
                <textarea id="message" name="message" rows={3} maxLength={2000} required>
                  {typed.message ?? ''}
                </textarea>
              </label>
              <button type="submit">Request information</button>
            </PostForm>
            <PostForm
              action={`${base}/reject`}
              csrf={ctx.csrf}
              class="stacked"
              label="Reject"
              confirm="Reject this KYC? The user becomes REJECTED."
            >
              <h3>Reject</h3>
              <label for="reason">
                Reason <span class="hint">(the organisation sees it)</span>
                <textarea id="reason" name="reason" rows={3} maxLength={1000} required>
                  {typed.reason ?? ''}
                </textarea>
              </label>
              <button type="submit" class="button-danger">
                Reject
              </button>
            </PostForm>
          </div>
        )}
      </section>
    </ConsolePage>
  );
}
