// Being told: a Telegram chat linked through the operator's bot (a fake of the Bot API, its wire format, the update
// delivered to our webhook with its secret as Telegram does), and a stream whose destination goes down for longer
// than its attention time: it needs attention, the creator is told once by e-mail in their language and by
// Telegram, and again when it is back; its history shows the outage with its length. Real time throughout: the
// stream's attention time is set to its minimum, one minute, and the destination stays down for longer.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reconcileStreams } from '../../lambdas/core/streams/reconcile';
import { streamsContext } from '../../lambdas/wiring/streams';
import { startNginxRtmp, type NginxRtmp } from '../../local/nginx-rtmp';
import { freePort } from '../../local/ports';
import type { LocalStack } from '../../local/stack';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import { api, mailsTo, signedInUser } from '../helpers/accounts';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { startTestStack } from '../helpers/stack';
import { waitFor } from '../helpers/wait';

const webhookSecret = randomBytes(24).toString('hex');
let telegram: FakeTelegram;
let stack: LocalStack;

beforeAll(async () => {
  telegram = await startFakeTelegram();
  stack = await startTestStack({
    rtmp: true,
    telegram: { botToken: telegram.botToken, botUsername: telegram.botUsername, webhookSecret, apiBase: telegram.apiBase },
  });
  // The operator's one-time step (docs/deploy.md): the bot's webhook, with its secret.
  await fetch(`${telegram.apiBase}/bot${telegram.botToken}/setWebhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${stack.urls.api}/telegram/webhook`, secret_token: webhookSecret }),
  });
}, 120_000);
afterAll(async () => {
  await stack.stop();
  await telegram.stop();
});

/** Links a Telegram chat to the user through the deep link, as the creator does in the app and in Telegram. */
async function linkTelegram(token: string, chatId: number): Promise<void> {
  const started = await api(stack, 'POST', '/notifications/telegram', { token });
  expect(started.status).toBe(200);
  const link = new URL(started.body.link);
  expect(`${link.origin}${link.pathname}`).toBe(`https://t.me/${telegram.botUsername}`);
  expect(await telegram.userSends(chatId, `/start ${link.searchParams.get('start')}`)).toBe(200);
}

describe('Telegram', () => {
  test("a chat is linked with a one-time deep link; the bot answers in the account's language; a used or unknown token links nothing", async () => {
    const user = await signedInUser(stack, 'tg', { language: 'es' });
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body).toEqual({ email: true, telegram: { available: true, linked: false } });

    const started = await api(stack, 'POST', '/notifications/telegram', { token: user.token });
    const startToken = new URL(started.body.link).searchParams.get('start')!;
    expect(await telegram.userSends(501, `/start ${startToken}`)).toBe(200);
    expect(telegram.messages.at(-1)).toEqual({ chatId: '501', text: expect.stringContaining('Vinculado a la cuenta de Loopcast de tg') });
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body.telegram).toMatchObject({
      available: true,
      linked: true,
      linkedAt: expect.any(String),
    });

    // The same link again, from another chat: nothing is linked to it.
    expect(await telegram.userSends(502, `/start ${startToken}`)).toBe(200);
    expect(telegram.messages.at(-1)).toEqual({ chatId: '502', text: expect.stringContaining('This is the Loopcast bot') });

    expect((await api(stack, 'DELETE', '/notifications/telegram', { token: user.token })).status).toBe(204);
    expect((await api(stack, 'GET', '/notifications', { token: user.token })).body.telegram.linked).toBe(false);
    expect((await api(stack, 'PATCH', '/notifications', { token: user.token, body: { email: false } })).body).toMatchObject({ email: false });
  });

  test('a webhook call without the secret is refused and changes nothing', async () => {
    const response = await fetch(`${stack.urls.api}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'guess' },
      body: JSON.stringify({ message: { chat: { id: 9 }, text: '/start x' } }),
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 400,
      body: { error: 'wrong signature', message: 'Payment verification failed. Please try again' },
    });
    expect(telegram.messages.some((m) => m.chatId === '9')).toBe(false);
  });
});

describe('a stream that needs attention', () => {
  let nginx: NginxRtmp;
  let rtmpPort: number;
  let hlsPort: number;
  const nginxDir = mkdtempSync(join(tmpdir(), 'loopcast-alert-rtmp-'));
  const startDestination = async () => startNginxRtmp({ dir: nginxDir, rtmpPort, hlsPort, logFile: join(nginxDir, 'nginx.log') });
  beforeAll(async () => {
    [rtmpPort, hlsPort] = [await freePort(), await freePort()];
    nginx = await startDestination();
  });
  afterAll(() => nginx.stop());

  const reconcile = () => reconcileStreams(streamsContext(stack.deps));

  test('the destination down past the attention time: told once by e-mail and Telegram, told again when it is back; the history shows the outage', async () => {
    const user = await signedInUser(stack, 'alert', { language: 'ru' });
    await linkTelegram(user.token, 777);
    const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 4 })).bytes);
    await waitForItem(stack, user.token, videoId);
    const channel = await api(stack, 'POST', '/channels/rtmp', { token: user.token, body: { name: 'Own server', url: nginx.rtmpUrl, key: 'alerted' } });
    const stream = (
      await api(stack, 'POST', '/streams', { token: user.token, body: { title: 'Ночной эфир', videoId, channelIds: [channel.body.id], attentionMinutes: 1 } })
    ).body;
    expect(stream).toMatchObject({ attentionMinutes: 1, needsAttention: false });
    await api(stack, 'POST', `/streams/${stream.id}/start`, { token: user.token });
    await waitForStreamStatus(stack, user.token, stream.id, 'started', 90_000);
    expect(await reconcile()).toMatchObject({ attention: 0 });

    await nginx.stop();
    const downAt = Date.now();
    await waitForStreamStatus(stack, user.token, stream.id, 'pending', 60_000);
    await reconcile(); // the first look: unhealthy since now
    await new Promise((resolve) => setTimeout(resolve, 62_000 - (Date.now() - downAt)));
    expect(await reconcile()).toMatchObject({ attention: 1 });
    expect(await reconcile()).toMatchObject({ attention: 0 }); // told once per incident

    const alerted = (await mailsTo(stack, user.email)).filter((mail) => mail.subject.includes('Ночной эфир'));
    expect(alerted).toHaveLength(1);
    expect(alerted[0]!.subject).toBe('Трансляции «Ночной эфир» нужно ваше внимание');
    expect(alerted[0]!.link).toBe(`${stack.urls.web}/ru/app/streams/${stream.id}`);
    expect(telegram.messages.filter((m) => m.chatId === '777' && m.text.includes('нужно ваше внимание'))).toHaveLength(1);
    expect((await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body).toMatchObject({
      needsAttention: true,
      attentionSince: expect.any(String),
    });

    nginx = await startDestination();
    await waitForStreamStatus(stack, user.token, stream.id, 'started', 90_000);
    await waitFor(
      'a healthy heartbeat',
      async () => (await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body.verdict,
      (verdict) => verdict === 'healthy',
      60_000,
    );
    expect(await reconcile()).toMatchObject({ recovered: 1 });
    const back = (await mailsTo(stack, user.email)).filter((mail) => mail.subject === 'Трансляция «Ночной эфир» снова работает');
    expect(back).toHaveLength(1);
    expect(telegram.messages.filter((m) => m.chatId === '777' && m.text.includes('снова работает'))).toHaveLength(1);
    expect((await api(stack, 'GET', `/streams/${stream.id}`, { token: user.token })).body.needsAttention).toBe(false);

    const history = (await api(stack, 'GET', `/streams/${stream.id}/history`, { token: user.token })).body;
    const kinds = [...history.events].reverse().map((event: { kind: string }) => event.kind);
    expect(kinds).toEqual(['started', 'live', 'interrupted', 'needs attention', 'live', 'recovered']);
    const outage = history.events.find((event: { kind: string }) => event.kind === 'interrupted');
    expect(outage.durationSeconds).toBeGreaterThanOrEqual(60);
    expect(history.events.find((event: { kind: string }) => event.kind === 'recovered').durationSeconds).toBeGreaterThanOrEqual(60);
    expect(history.uptime.day).toBeGreaterThan(0);
    expect(history.uptime.day).toBeLessThan(0.9);

    const incidents = (await api(stack, 'GET', '/incidents', { token: user.token })).body.incidents;
    expect(incidents.map((incident: { kind: string; streamTitle: string }) => `${incident.kind}: ${incident.streamTitle}`)).toEqual([
      'recovered: Ночной эфир',
      'needs attention: Ночной эфир',
      'interrupted: Ночной эфир',
    ]);
    await api(stack, 'POST', `/streams/${stream.id}/stop`, { token: user.token });
    const stoppedHistory = (await api(stack, 'GET', `/streams/${stream.id}/history`, { token: user.token })).body;
    expect(stoppedHistory.events[0]).toMatchObject({ kind: 'stopped' });
  }, 300_000);
});
