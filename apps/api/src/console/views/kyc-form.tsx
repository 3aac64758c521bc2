// The applicant's KYC form as a reviewer reads an identity: labelled fields in a fixed order (name, birth
// date, nationality, address), whatever order the stored JSON holds them in; keys the form does not know
// (a form stored before or after a change of its rules) follow, each labelled with its path, so nothing
// stored is hidden.
import type { ComponentChildren } from 'preact';

import type { KycForm } from '../../kyc/dto/kyc-form.dto.js';
import { Facts } from '../../web/components/ui.js';

type Path = readonly [Exclude<keyof KycForm, 'address'>] | readonly ['address', keyof KycForm['address']];

interface Field {
  readonly label: string;
  readonly path: Path;
  readonly show?: (text: string) => ComponentChildren;
  /** Shown as "not given" when missing; an optional field missing is left out. */
  readonly required: boolean;
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** "United Kingdom (GB)"; a code Intl does not know stays as it is. */
export function countryText(code: string): string {
  const name = /^[A-Z]{2}$/.test(code) ? regions.of(code) : undefined;
  return name ? `${name} (${code})` : code;
}

function birthDate(text: string): ComponentChildren {
  const date = new Date(`${text}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(date.getTime())) return text;
  return <time dateTime={text}>{`${longDate.format(date)} (${text})`}</time>;
}

export const KYC_FORM_FIELDS: readonly Field[] = [
  { label: 'First name', path: ['firstName'], required: true },
  { label: 'Last name', path: ['lastName'], required: true },
  { label: 'Date of birth', path: ['dateOfBirth'], show: birthDate, required: true },
  { label: 'Nationality', path: ['nationality'], show: countryText, required: true },
  { label: 'Address line 1', path: ['address', 'line1'], required: true },
  { label: 'Address line 2', path: ['address', 'line2'], required: false },
  { label: 'City', path: ['address', 'city'], required: true },
  { label: 'Postal code', path: ['address', 'postalCode'], required: true },
  { label: 'Country of residence', path: ['address', 'country'], show: countryText, required: true },
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const valueText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The stored form's fields: the known ones in order, then every other key by its path. */
export function kycFormFacts(form: Record<string, unknown>): {
  readonly known: readonly (readonly [string, ComponentChildren])[];
  readonly other: readonly (readonly [string, ComponentChildren])[];
} {
  const known: (readonly [string, ComponentChildren])[] = [];
  const seen = new Set<string>();
  for (const field of KYC_FORM_FIELDS) {
    seen.add(field.path.join('.'));
    const [head, key] = field.path;
    const parent: unknown = key === undefined ? form : form[head];
    const value = isRecord(parent) ? parent[key ?? head] : undefined;
    if (value === undefined || value === null) {
      if (field.required) known.push([field.label, <span class="muted">not given</span>]);
    } else if (typeof value === 'string' && field.show) {
      known.push([field.label, field.show(value)]);
    } else {
      known.push([field.label, valueText(value)]);
    }
  }
  const other: (readonly [string, ComponentChildren])[] = [];
  for (const [key, value] of Object.entries(form)) {
    if (key === 'address' && isRecord(value)) {
      for (const [inner, nested] of Object.entries(value))
        if (!seen.has(`address.${inner}`)) other.push([`address.${inner}`, valueText(nested)]);
    } else if (!seen.has(key)) {
      other.push([key, valueText(value)]);
    }
  }
  return { known, other };
}

/** The form, or what says none was submitted. */
export function KycFormFields(props: { readonly form: unknown }) {
  if (!isRecord(props.form)) return <p class="empty">No form submitted.</p>;
  const { known, other } = kycFormFacts(props.form);
  return (
    <>
      <Facts items={known} />
      {other.length > 0 && (
        <>
          <h3>Other fields in the stored form</h3>
          <Facts items={other} />
        </>
      )}
    </>
  );
}
