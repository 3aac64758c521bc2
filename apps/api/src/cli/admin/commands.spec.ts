import { operatorFilter } from './audit.js';
import { ADMIN_ROUTES } from './client.js';
import { COMMANDS, GROUPS } from './commands.js';
import { noticeFields } from './notices.js';
import { orgFields } from './orgs.js';
import { policyFields } from './policy.js';

describe('the command registry', () => {
  it('names every command by its group and its word, groups in usage order', () => {
    expect(Object.keys(GROUPS)).toEqual([
      'orgs',
      'api-keys',
      'clients',
      'tokens',
      'audit',
      'prices',
      'policy',
      'notices',
      'session',
      'operators',
      'personal-tokens',
    ]);
    expect(Object.keys(COMMANDS)).toHaveLength(32);
    expect(Object.keys(COMMANDS)).toContain('orgs bootstrap');
  });
  it('has one command per admin route, bootstrap aside', () => {
    expect(Object.keys(COMMANDS).length - 1).toBe(Object.keys(ADMIN_ROUTES).length);
  });
});

describe('operatorFilter', () => {
  it('names the operator by id, or by e-mail when the value holds an @', () => {
    expect(operatorFilter('0b5f9a3e-8f6e-4c43-9c3a-2d1c1b0a9f00')).toEqual({
      operatorId: '0b5f9a3e-8f6e-4c43-9c3a-2d1c1b0a9f00',
    });
    expect(operatorFilter('ada@ops.example')).toEqual({ operatorEmail: 'ada@ops.example' });
    expect(operatorFilter(undefined)).toEqual({});
  });
});

describe('orgFields', () => {
  it('names the flags as the api does', () => {
    expect(
      orgFields({
        name: 'Acme',
        'kyc-domain': 'acme.example',
        plan: 'STANDARD',
        'support-email': ['a@acme.example'],
      }),
    ).toEqual({
      name: 'Acme',
      kycDomain: 'acme.example',
      plan: 'STANDARD',
      supportEmails: ['a@acme.example'],
    });
  });
  it('--no-support-emails clears the list; absent flags are left out', () => {
    expect(orgFields({ 'no-support-emails': true })).toEqual({ supportEmails: [] });
    expect(orgFields({})).toEqual({});
  });
});

describe('policyFields', () => {
  it('reads each flag into its field; "" clears a list or a map', () => {
    expect(
      JSON.parse(
        JSON.stringify(
          policyFields({
            'enabled-assets': 'BTC, ETH',
            'quote-limit': 'EUR=1000',
            'total-limit': '',
            'total-exposure': 'EUR=0',
            'asset-exposure': 'BTC=2',
            'commission-rate': '0.0015',
            'vat-rate': '0.21',
          }),
        ),
      ),
    ).toEqual({
      enabledAssets: ['BTC', 'ETH'],
      quoteLimit: { EUR: 1000 },
      totalLimit: {},
      totalExposure: { EUR: 0 },
      assetExposure: { BTC: 2 },
      commissionRate: 0.0015,
      vatRate: 0.21,
    });
    expect(policyFields({ 'enabled-assets': '' })).toEqual({ enabledAssets: [] });
  });
  it('refuses no flag at all, and a rate with too many digits', () => {
    expect(() => policyFields({})).toThrow('policy set needs at least one of');
    expect(() => policyFields({ 'vat-rate': '0.123456789' })).toThrow(
      '--vat-rate must have at most 8 decimals',
    );
  });
});

describe('noticeFields', () => {
  it('sends start and end only when given', () => {
    expect(
      noticeFields({
        event: 'ASSET_DISABLE',
        entity: 'ADA_EUR',
        message: 'm',
        start: '2030-01-01T00:00:00Z',
      }),
    ).toEqual({
      event: 'ASSET_DISABLE',
      entity: 'ADA_EUR',
      message: 'm',
      startTime: '2030-01-01T00:00:00Z',
    });
  });
  it('names the missing required flags', () => {
    expect(() => noticeFields({ event: 'ASSET_DISABLE' })).toThrow('missing --entity, --message');
  });
});
