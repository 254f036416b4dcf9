import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { grabFrame, loopPosition } from './preview';

test('the loop position wraps around the loop length', () => {
  expect(loopPosition(0, 6_000_000)).toBe(0);
  expect(loopPosition(7_500, 6_000_000)).toBe(1.5);
  expect(loopPosition(12_000, 6_000_000)).toBe(0);
  expect(loopPosition(5_000, 0)).toBe(0);
});

test('a frame of the video at a position is a 640-wide JPEG', async () => {
  const video = join(mkdtempSync(join(tmpdir(), 'preview-')), 'v.mp4');
  await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=3', '-c:v', 'libx264', '-preset', 'ultrafast', video]);
  const frame = await grabFrame(video, 1.5);
  expect(frame.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  await expect(grabFrame(join(tmpdir(), 'missing.mp4'), 0)).rejects.toThrow('no preview frame');
}, 30_000);
