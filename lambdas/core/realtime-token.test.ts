import { issueRealtimeToken, REALTIME_TOKEN_TTL_SECONDS, verifyRealtimeToken } from './realtime-token';

const secret = 'a-test-secret-of-enough-length';
const now = new Date('2026-11-21T12:00:00Z');

describe('realtime token', () => {
  test('verifies for its user until it expires', () => {
    const token = issueRealtimeToken({ userId: 'user-1', sessionId: 'session-1' }, secret, now);
    expect(verifyRealtimeToken(token, secret, now)).toEqual({ userId: 'user-1', sessionId: 'session-1' });
    expect(verifyRealtimeToken(token, secret, new Date(now.getTime() + (REALTIME_TOKEN_TTL_SECONDS - 1) * 1000))).toEqual({
      userId: 'user-1',
      sessionId: 'session-1',
    });
    expect(verifyRealtimeToken(token, secret, new Date(now.getTime() + REALTIME_TOKEN_TTL_SECONDS * 1000))).toBeUndefined();
  });

  test('refuses tampered, foreign and malformed tokens', () => {
    const token = issueRealtimeToken({ userId: 'user-1', sessionId: 'session-1' }, secret, now);
    const [payload, signature] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'user-2', exp: 9999999999, pur: 'realtime' })).toString('base64url');
    expect(verifyRealtimeToken(`${otherPayload}.${signature}`, secret, now)).toBeUndefined();
    expect(verifyRealtimeToken(`${payload}.${signature}x`, secret, now)).toBeUndefined();
    expect(verifyRealtimeToken(token, 'another-secret', now)).toBeUndefined();
    for (const bad of ['', 'abc', 'a.b.c', `${payload}.`]) expect(verifyRealtimeToken(bad, secret, now)).toBeUndefined();
  });
});
