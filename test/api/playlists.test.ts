// Playlists end to end: three videos of different lengths uploaded and transcoded by the local stack, a stream of
// them started, and a player at the real nginx-rtmp reading every packet with ffprobe. Each item is told apart by
// its keyframes: the stream-ready profile puts one every 2 s from an item's first frame, so a 3 s item shows the
// keyframe intervals 2, 1; a 5 s one 2, 2, 1; a 7 s one 2, 2, 2, 1. The count of 2 s intervals before each 1 s one
// names the item that just played.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination } from '../helpers/creators';
import { makeClip, uploadWithTus, waitForItem, waitForStreamStatus } from '../helpers/media';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
});
afterAll(() => stack.stop());

/** Reads the live stream at `url`, packet by packet, keyframes noted with their arrival time. */
class KeyframeWatcher {
  readonly dts = { video: [] as number[], audio: [] as number[] };
  readonly keyframes: { dts: number; at: number }[] = [];
  private readonly child: ChildProcessByStdio<null, Readable, null>;

  constructor(url: string) {
    this.child = spawn(
      'stdbuf',
      ['-oL', 'ffprobe', '-v', 'error', '-rw_timeout', '15000000', '-show_entries', 'packet=codec_type,dts_time,flags', '-of', 'csv=p=0', url],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const [type, dtsText, flags] = line.split(',');
      const dts = Number(dtsText);
      if ((type !== 'video' && type !== 'audio') || !Number.isFinite(dts)) return;
      this.dts[type].push(dts);
      if (type === 'video' && flags?.startsWith('K')) this.keyframes.push({ dts, at: Date.now() });
    });
  }

  /** The items played, as named by their keyframes (see the top), each with when its last keyframe arrived; the first
   * one, seen from its middle, is left out. */
  items(): { name: number; endedAt: number }[] {
    const items: { name: number; endedAt: number }[] = [];
    let twos = 0;
    let first = true;
    for (let i = 1; i < this.keyframes.length; i += 1) {
      const interval = Math.round((this.keyframes[i]!.dts - this.keyframes[i - 1]!.dts) * 10) / 10;
      if (interval === 2) twos += 1;
      else if (interval === 1) {
        if (!first) items.push({ name: twos, endedAt: this.keyframes[i]!.at });
        first = false;
        twos = 0;
      } else throw new Error(`a keyframe interval of ${interval} s: not a join of stream-ready items`);
    }
    return items;
  }

  async until(condition: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) {
        const intervals = this.keyframes.slice(1).map((k, i) => (k.dts - this.keyframes[i]!.dts).toFixed(2));
        throw new Error(
          `not within ${timeoutMs} ms; items so far ${JSON.stringify(this.items().map((i) => i.name))}; ${this.dts.video.length} video packets, keyframe intervals ${intervals.join(' ')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

const regressions = (dts: number[]) => dts.filter((value, i) => i > 0 && value <= dts[i - 1]!).length;
const largestStep = (dts: number[]) => Math.max(...dts.slice(1).map((value, i) => value - dts[i]!));

/** Polls the stream until its health satisfies `ready`. */
async function waitForHealth(token: string, streamId: string, ready: (health: Record<string, any>) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(stack, 'GET', `/streams/${streamId}`, { token });
    if (body.health && ready(body.health)) return body;
    if (Date.now() > deadline) throw new Error(`health not as wanted within ${timeoutMs} ms: ${JSON.stringify(body.health)}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

test('a playlist of three videos of different lengths plays in order across passes with every packet in order; shuffled after an edit at the next join, each pass a fresh order; an edit for the next restart waits', async () => {
  // A (3 s) comes with the creator; B (5 s) and C (7 s) are uploaded beside it.
  const ida = await creatorWithDestination(stack, 'pia', 3);
  const [b, c] = await Promise.all(
    [5, 7].map(async (seconds) => {
      // Every item of a playlist has one picture size: Full HD, as the creator's own video.
      const clip = await makeClip({ seconds, size: '1920x1080' });
      const id = await uploadWithTus(stack, ida.token, clip.bytes, { filename: `${seconds}s.mp4`, filetype: 'video/mp4', kind: 'video' });
      expect((await waitForItem(stack, ida.token, id)).status).toBe('ready');
      return id;
    }),
  );
  const ids = [ida.videoId, b!, c!];
  const nameOf = new Map(ids.map((id, i) => [id, i + 1]));

  // What cannot be a playlist is refused with catalogued errors.
  const song = await uploadWithTus(stack, ida.token, (await makeClip({ seconds: 2 })).bytes, { filename: 'song.m4a', filetype: 'audio/mp4', kind: 'audio' });
  await waitForItem(stack, ida.token, song);
  expect((await createStream(stack, ida, { playlist: { videoIds: [ida.videoId, song] } })).body).toMatchObject({
    error: 'invalid request',
    details: { fields: { playlist: 'must be videos, not audio tracks' } },
  });
  expect((await createStream(stack, ida, { playlist: { videoIds: [ida.videoId, 'nope'] } })).body).toMatchObject({ error: 'not found' });
  const tooLong = await createStream(stack, ida, { playlist: { videoIds: [...ids, ...ids] } });
  expect(tooLong).toMatchObject({
    status: 403,
    body: { error: 'playlist limit', message: 'This playlist has more videos than your plan allows. Remove some or upgrade your plan' },
  });
  expect((await createStream(stack, ida, { playlist: { videoIds: [] } })).status).toBe(400);

  const created = await createStream(stack, ida, { playlist: { videoIds: ids, shuffle: false } });
  expect(created).toMatchObject({ status: 201, body: { videoId: ida.videoId, playlist: { videoIds: ids, shuffle: false, revision: 0 } } });
  const streamId = created.body.id as string;
  expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: ida.token })).status).toBe(200);
  await waitForStreamStatus(stack, ida.token, streamId, 'started', 120_000);
  // A video in a running stream's playlist cannot be deleted.
  expect((await api(stack, 'DELETE', `/videos/${c}`, { token: ida.token })).body).toMatchObject({ error: 'video in use' });

  const watcher = new KeyframeWatcher(`${stack.urls.rtmp}/${ida.key}`);
  try {
    // Two whole passes in order after the item the player joined in.
    const fromFirstItem = () => watcher.items().slice(watcher.items().findIndex((item) => item.name === 1));
    await watcher.until(() => watcher.items().some((item) => item.name === 1) && fromFirstItem().length >= 6, 90_000);
    const inOrder = watcher.items().map((item) => item.name);
    const from = inOrder.indexOf(1);
    expect(inOrder.slice(from, from + 6)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(inOrder.every((name, i) => i === 0 || name === (inOrder[i - 1]! % 3) + 1)).toBe(true);

    // Shuffle from the next join on.
    const editedAt = Date.now();
    const edit = await api(stack, 'PUT', `/streams/${streamId}/playlist`, { token: ida.token, body: { videoIds: ids, shuffle: true, apply: 'join' } });
    expect(edit).toMatchObject({ status: 200, body: { status: 'started', playlist: { shuffle: true, revision: 1, apply: 'join' } } });
    // The task gets it with its next heartbeat (every 30 s) and reports it applied.
    const applied = await waitForHealth(ida.token, streamId, (health) => health.playlist?.applied === 1, 60_000);
    expect(nameOf.has(applied.health.playlist.videoId)).toBe(true);
    const appliedSeenAt = Date.now();
    const before = watcher.items().length;
    // Three passes (9 items) after the edit surely applied.
    await watcher.until(() => watcher.items().filter((item) => item.endedAt > appliedSeenAt).length >= 10, 150_000);
    const shuffled = watcher
      .items()
      .filter((item) => item.endedAt > appliedSeenAt)
      .map((item) => item.name);
    expect(
      watcher
        .items()
        .slice(0, before)
        .every((item) => item.endedAt < editedAt || item.endedAt <= appliedSeenAt),
    ).toBe(true);
    // Some alignment makes every 3 items a pass playing each item once, and the passes are not all in one order.
    const passesAt = (offset: number) =>
      Array.from({ length: Math.floor((shuffled.length - offset) / 3) }, (_, i) => shuffled.slice(offset + 3 * i, offset + 3 * i + 3));
    const alignment = [0, 1, 2].map(passesAt).find((passes) => passes.length >= 2 && passes.every((pass) => [...pass].sort().join() === '1,2,3'));
    expect(alignment).toBeDefined();
    expect(new Set(alignment!.map((pass) => pass.join())).size).toBeGreaterThan(1);
    // No item twice in a row, even across passes.
    expect(shuffled.every((name, i) => i === 0 || name !== shuffled[i - 1])).toBe(true);

    // An edit for the next restart: the task holds it and goes on playing revision 1.
    const held = await api(stack, 'PUT', `/streams/${streamId}/playlist`, { token: ida.token, body: { videoIds: [c, b], shuffle: false, apply: 'restart' } });
    expect(held.body).toMatchObject({ videoId: c, playlist: { videoIds: [c, b], revision: 2, apply: 'restart' } });
    await waitForHealth(ida.token, streamId, (health) => health.playlist?.revision === 2, 60_000);
    expect((await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token })).body.health.playlist.applied).toBe(1);

    // Every packet, across every join, pass and edit, in order; no hole in the picture or the sound.
    console.log(
      `[playlists] in order ${JSON.stringify(inOrder)}; shuffled ${JSON.stringify(shuffled)}; packets video ${watcher.dts.video.length}, audio ${watcher.dts.audio.length}; largest steps ${largestStep(watcher.dts.video).toFixed(3)} s / ${largestStep(watcher.dts.audio).toFixed(3)} s`,
    );
    expect(regressions(watcher.dts.video)).toBe(0);
    expect(regressions(watcher.dts.audio)).toBe(0);
    expect(largestStep(watcher.dts.video)).toBeLessThan(0.05);
    expect(largestStep(watcher.dts.audio)).toBeLessThan(0.1);
  } catch (error) {
    // What the task said, for the failure's reader.
    const log = readFileSync(join(stack.dataDir, 'logs', `stream-${streamId}.log`), 'utf8');
    console.log(
      log
        .split('\n')
        .map((line) => /"message":"([^"]*)"/.exec(line)?.[1])
        .filter(Boolean)
        .slice(0, 60)
        .join('\n'),
    );
    throw error;
  } finally {
    watcher.stop();
  }
  expect((await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ida.token })).body).toMatchObject({ status: 'stopped' });
  // Stopped, its videos can be deleted again; a deleted video leaves the playlist.
  expect((await api(stack, 'DELETE', `/videos/${b}`, { token: ida.token })).status).toBe(204);
  expect((await api(stack, 'GET', `/streams/${streamId}`, { token: ida.token })).body).toMatchObject({ videoId: c, playlist: { videoIds: [c], revision: 3 } });
}, 600_000);
