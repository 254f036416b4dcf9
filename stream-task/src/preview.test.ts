import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jest } from '@jest/globals';
import { grabFrame, loopPosition, PREVIEW_INTERVAL_MS, PreviewTaker } from './preview';

test('the loop position wraps around the loop length', () => {
  expect(loopPosition(0, 6_000_000)).toBe(0);
  expect(loopPosition(7_500, 6_000_000)).toBe(1.5);
  expect(loopPosition(12_000, 6_000_000)).toBe(0);
  expect(loopPosition(5_000, 0)).toBe(0);
});

test('a frame of the video at a position is a 640-wide JPEG', async () => {
  const video = join(mkdtempSync(join(tmpdir(), 'preview-')), 'v.mp4');
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    video,
  ]);
  const frame = await grabFrame(video, 1.5);
  expect(frame.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  await expect(grabFrame(join(tmpdir(), 'missing.mp4'), 0)).rejects.toThrow('no preview frame');
}, 30_000);

describe('preview frames are taken only while someone watches', () => {
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  test('none before the media is ready or while nobody watches; one at once when wanted, then one a minute; none after', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const grabbed: number[] = [];
      const stored: Buffer[] = [];
      const taker = new PreviewTaker(
        async (jpeg) => {
          stored.push(jpeg);
        },
        () => undefined,
        async (_path, seconds) => {
          grabbed.push(seconds);
          return Buffer.from([0xff, 0xd8]);
        },
      );
      taker.wanted(true);
      expect(grabbed).toHaveLength(0); // the media is not ready yet
      taker.ready(() => ({ path: '/video.mp4', seconds: 1.5 }));
      await flush();
      expect(stored).toHaveLength(1);
      jest.advanceTimersByTime(PREVIEW_INTERVAL_MS);
      await flush();
      expect(stored).toHaveLength(2);
      taker.wanted(false);
      jest.advanceTimersByTime(5 * PREVIEW_INTERVAL_MS);
      await flush();
      expect(stored).toHaveLength(2);
      taker.wanted(true);
      taker.wanted(true); // still one timer
      jest.advanceTimersByTime(PREVIEW_INTERVAL_MS);
      await flush();
      expect(stored).toHaveLength(4);
      taker.close();
    } finally {
      jest.useRealTimers();
    }
  });
});
