import { randomBytes } from 'node:crypto';
import { localSecretBox } from './envelope';

describe('local envelope encryption', () => {
  const box = localSecretBox(randomBytes(32));
  const context = { userId: 'u1', channelId: 'c1' };

  test('round-trips, never shows the plaintext, differs every time', async () => {
    const sealed = await box.seal('live_1234-abcd-secret', context);
    expect(sealed).toMatch(/^local1\./);
    expect(sealed).not.toContain('secret');
    expect(await box.seal('live_1234-abcd-secret', context)).not.toBe(sealed);
    expect(await box.open(sealed, context)).toBe('live_1234-abcd-secret');
  });

  test('does not open under another context, another key, or when altered', async () => {
    const sealed = await box.seal('token', context);
    await expect(box.open(sealed, { userId: 'u2', channelId: 'c1' })).rejects.toThrow();
    await expect(localSecretBox(randomBytes(32)).open(sealed, context)).rejects.toThrow();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    await expect(box.open(parts.join('.'), context)).rejects.toThrow();
    await expect(box.open('kms1.a.b.c.d', context)).rejects.toThrow('not a sealed secret');
  });
});
