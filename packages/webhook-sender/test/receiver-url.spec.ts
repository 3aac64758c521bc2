import { DEVELOPMENT_POLICY, STRICT_POLICY } from '../src/policy.js';
import { checkReceiverUrl, ReceiverRefusedError } from '../src/receiver-url.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ReceiverRefusedError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error('not refused');
};

describe('checkReceiverUrl', () => {
  it.each([
    'https://example.com/hook',
    'https://hooks.example.com/hook',
    'https://a.b.example.com:8443/hook?x=1',
    'https://HOOKS.Example.COM./hook',
  ])('accepts %s for kycDomain example.com', (url) => {
    expect(checkReceiverUrl(url, 'example.com', STRICT_POLICY)).toBeInstanceOf(URL);
  });

  it.each([
    ['https://evil.com/hook', 'host_not_allowed'],
    ['https://example.com.evil.com/hook', 'host_not_allowed'],
    ['https://notexample.com/hook', 'host_not_allowed'],
    ['https://93.184.216.34/hook', 'host_not_allowed'],
    ['http://hooks.example.com/hook', 'https_required'],
    ['ftp://hooks.example.com/hook', 'invalid_url'],
    ['hooks.example.com/hook', 'invalid_url'],
    ['https://user:pw@hooks.example.com/hook', 'invalid_url'],
    ['https://hooks.example.com/hook#x', 'invalid_url'],
    [`https://hooks.example.com/${'x'.repeat(2048)}`, 'invalid_url'],
  ])('refuses %s (%s)', (url, reason) => {
    expect(refusal(() => checkReceiverUrl(url, 'example.com', STRICT_POLICY)).reason).toBe(reason);
  });

  it('names the domain the host must be under', () => {
    expect(refusal(() => checkReceiverUrl('https://evil.com/', 'example.com', STRICT_POLICY)).message).toBe(
      "url host must be example.com or a subdomain of it (the organisation's KYC domain), not evil.com",
    );
  });

  it('accepts http://localhost:<port> for kycDomain localhost under the development policy only', () => {
    expect(checkReceiverUrl('http://localhost:4000/hook', 'localhost', DEVELOPMENT_POLICY).port).toBe('4000');
    expect(
      refusal(() => checkReceiverUrl('http://localhost:4000/hook', 'localhost', STRICT_POLICY)).reason,
    ).toBe('https_required');
  });
});
