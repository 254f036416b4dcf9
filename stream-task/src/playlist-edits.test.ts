// Edits handed over by heartbeat answers, prepared from real files made with ffmpeg.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocalFileFetcher } from './inputs';
import type { LogLevelName } from './log';
import { prepareMedia } from './media';
import { PlaylistEdits } from './playlist-edits';
import { seededRandom } from './playlist-order';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'loopcast-playlist-edits-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function clip(name: string, size = '320x180'): Promise<string> {
  const path = join(dir, name);
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=30:duration=1`,
    '-f',
    'lavfi',
    '-i',
    'sine=duration=1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-shortest',
    '-y',
    path,
  ]);
  return path;
}

test('an edit is prepared once, handed to the playlist for its moment; one of another profile is refused once', async () => {
  const [a, b, wide] = await Promise.all([clip('a.mp4'), clip('b.mp4'), clip('wide.mp4', '640x360')]);
  const fetchers = [new LocalFileFetcher()];
  const work = join(dir, 'work');
  const media = await prepareMedia({ video: a, playlist: { revision: 1, shuffle: false, items: [{ id: 'a', url: a }] } }, fetchers, work, undefined, {
    random: seededRandom(1),
  });
  expect(media.files).toEqual({ feed: 'stdin' });
  expect(media.loopDurationUs).toBeGreaterThan(900_000);
  const logged: [string, LogLevelName | undefined][] = [];
  const edits = new PlaylistEdits(fetchers, work, (message, level) => logged.push([message, level]));
  const edit = {
    playlist: {
      revision: 2,
      shuffle: false,
      items: [
        { id: 'b', url: b },
        { id: 'a', url: a },
      ],
    },
    apply: 'join' as const,
  };
  await edits.receive(edit); // before the playlist plays: nothing to edit yet
  expect(logged).toEqual([]);
  edits.ready(media.playlist);
  await Promise.all([edits.receive(edit), edits.receive(edit)]);
  await edits.receive(edit);
  expect(logged).toEqual([['playlist revision 2 ready, applies at the next join', 'info']]);
  const runtime = media.playlist!.runtime;
  expect(runtime.status()).toEqual({ revision: 2, applied: 1, videoId: 'a' });
  expect(runtime.advance().id).toBe('b');
  expect(runtime.advance().id).toBe('a');

  const odd = { playlist: { revision: 3, shuffle: false, items: [{ id: 'wide', url: wide }] }, apply: 'restart' as const };
  await edits.receive(odd);
  await edits.receive(odd);
  expect(logged.slice(1)).toEqual([[expect.stringMatching(/^playlist revision 3 not applied: playlist item wide is 640x360/), 'error']]);
  expect(runtime.status().revision).toBe(2);
});
