import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, keyedHash } from './crypto.js';

describe('token encryption', () => {
  const key = randomBytes(32);
  it('round-trips and never contains the plaintext', () => {
    const c = encryptSecret('pat-na1-secret-token', key);
    expect(c).not.toContain('pat-na1');
    expect(decryptSecret(c, key)).toBe('pat-na1-secret-token');
    expect(encryptSecret('pat-na1-secret-token', key)).not.toBe(c); // random IV
  });
  it('detects tampering and wrong keys', () => {
    const c = encryptSecret('hello', key);
    const parts = c.split(':');
    parts[3] = Buffer.from('jello').toString('base64');
    expect(() => decryptSecret(parts.join(':'), key)).toThrow();
    expect(() => decryptSecret(c, randomBytes(32))).toThrow();
  });
  it('keyed hashes depend on the secret', () => {
    expect(keyedHash('t', 'a')).not.toBe(keyedHash('t', 'b'));
  });
});
