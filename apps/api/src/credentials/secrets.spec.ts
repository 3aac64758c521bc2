import { constantTimeEqual, sha256Hex } from './secrets.js';

describe('credential digests', () => {
  it('stores SHA-256 in lower-case hex: the FIPS 180-2 vectors, and a token as its bytes in UTF-8', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('é')).toBe(sha256Hex('\u00e9'));
    expect(sha256Hex('é')).not.toBe(sha256Hex('e\u0301'));
  });

  it('compares secrets of any lengths', () => {
    expect(constantTimeEqual('token', 'token')).toBe(true);
    expect(constantTimeEqual('token', 'tokeN')).toBe(false);
    expect(constantTimeEqual('token', 'token-longer')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
