import { renderToStaticMarkup } from 'preact-render-to-string';
import { h } from 'preact';

import { countryText, kycFormFacts } from './kyc-form.js';

const text = (value: unknown) =>
  typeof value === 'string' ? value : renderToStaticMarkup(h('p', null, value as never));

describe("a KYC file's form", () => {
  it('lists the known fields in a reviewer order, whatever order the stored JSON has', () => {
    const { known, other } = kycFormFacts({
      address: { country: 'FR', postalCode: '75001', city: 'Paris', line1: '1 rue de Rivoli' },
      nationality: 'GB',
      dateOfBirth: '1990-04-01',
      lastName: 'Lovelace',
      firstName: 'Ada',
    });
    expect(known.map(([label, value]) => [label, text(value)])).toEqual([
      ['First name', 'Ada'],
      ['Last name', 'Lovelace'],
      ['Date of birth', '<p><time datetime="1990-04-01">1 April 1990 (1990-04-01)</time></p>'],
      ['Nationality', 'United Kingdom (GB)'],
      ['Address line 1', '1 rue de Rivoli'],
      ['City', 'Paris'],
      ['Postal code', '75001'],
      ['Country of residence', 'France (FR)'],
    ]);
    expect(other).toEqual([]);
  });

  it('shows an optional field when given, a missing required one as not given, unknown keys after by path', () => {
    const { known, other } = kycFormFacts({
      firstName: 'Ada',
      middleName: 'Augusta',
      address: { line1: 'a', line2: 'b', city: 'c', postalCode: 'd', country: 'GB', region: 'London' },
      tags: ['x', 1],
    });
    expect(known.map(([label]) => label)).toContain('Address line 2');
    expect(text(known.find(([label]) => label === 'Last name')?.[1])).toBe(
      '<p><span class="muted">not given</span></p>',
    );
    expect(other).toEqual([
      ['middleName', 'Augusta'],
      ['address.region', 'London'],
      ['tags', '["x",1]'],
    ]);
  });

  it('names a country, and leaves a code it does not know as it is', () => {
    expect(countryText('DE')).toBe('Germany (DE)');
    expect(countryText('XY')).toBe('XY');
    expect(countryText('gb')).toBe('gb');
  });
});
