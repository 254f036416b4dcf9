// A stream that runs past every minute-scale timer of the product (the States Language's 60 s task default that
// once started a second task every minute, the 30 s heartbeat and lease renewal, the 90 s lease, the reconciler's
// minute), watched as a creator's tools would: the API, the processes on the machine, the RTMP server's own count of
// publishers, and a player reading every packet (test/helpers/soak.ts; `npm run bench:soak` is the same for an
// hour). It is the video's second start, whose task takes the probe its first task left with the item instead of
// probing again (docs/stream-task.md, "The probe, kept with the item"). Then Stop, and nothing may be left
// publishing.
import { DynamoVideoStore } from '../../lambdas/adapters/dynamo/video-store';
import { TASK_LEASE } from '../../lambdas/contract/stream-task';
import type { LocalStack } from '../../local/stack';
import { api } from '../helpers/accounts';
import { createStream, creatorWithDestination } from '../helpers/creators';
import { waitForStreamStatus } from '../helpers/media';
import { noMediaWithin, RtmpPlayer } from '../helpers/player';
import { soak } from '../helpers/soak';
import { startTestStack } from '../helpers/stack';
import { publishingFfmpegs, rtmpPublishers, streamTaskProcesses } from '../helpers/stream-tasks';

const RUN_SECONDS = 200;
const CLIP_SECONDS = 2;

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ rtmp: true });
});
afterAll(() => stack.stop());

test(
  `a video's second start runs ${RUN_SECONDS} s (${RUN_SECONDS / CLIP_SECONDS} loop seams) with one task and one publisher throughout, started at every check, never restarted, every packet in order; after Stop no media arrives and no task is left`,
  async () => {
    const ida = await creatorWithDestination(stack, 'ida', CLIP_SECONDS);
    const streamId = (await createStream(stack, ida)).body.id as string;
    const start = async () => {
      expect((await api(stack, 'POST', `/streams/${streamId}/start`, { token: ida.token })).status).toBe(200);
      await waitForStreamStatus(stack, ida.token, streamId, 'started', 90_000);
    };
    await start();
    await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ida.token });
    await waitForStreamStatus(stack, ida.token, streamId, 'stopped');
    const item = await new DynamoVideoStore(stack.deps.db, stack.config.tables.app).get(ida.userId, ida.videoId);
    expect(item?.streamProbe?.etag).toMatch(/^"\w+"$/);
    await start();
    const [task] = streamTaskProcesses(streamId);
    expect(task).toBeDefined();

    const figures = await soak({
      stack,
      token: ida.token,
      streamId,
      key: ida.key,
      seconds: RUN_SECONDS,
      checkEveryMs: 5000,
      onCheck: (check) =>
        expect({ ...check, tasks: check.taskPids, ffmpegs: check.ffmpegPids.length }).toMatchObject({
          status: 'started',
          restarts: 0,
          tasks: [task!.pid],
          ffmpegs: 1,
          publishers: 1,
        }),
    });
    const first = figures.checks[0]!;
    const last = figures.checks.at(-1)!;
    console.log(
      `[long run] ${figures.checks.length} checks over ${RUN_SECONDS} s; loops ${first.loops} -> ${last.loops}; supervisor RSS ${first.supervisor!.rss} -> ${last.supervisor!.rss} B; ffmpeg RSS ${first.ffmpeg!.rss} -> ${last.ffmpeg!.rss} B; player ${JSON.stringify(figures.player)}`,
    );
    // The API's loop count is the last heartbeat's, up to one renewal interval old at either check.
    const watchedSeconds = last.at - first.at;
    expect(last.loops - first.loops).toBeGreaterThanOrEqual(Math.floor((watchedSeconds - TASK_LEASE.renewSeconds) / CLIP_SECONDS) - 2);
    for (const track of [figures.player.video, figures.player.audio]) {
      expect(track.dtsRegressions).toBe(0);
      expect(track.gaps).toBe(0);
      expect(track.mediaSeconds).toBeGreaterThan(RUN_SECONDS - 15);
    }

    // A player listening through the stop: its last packet comes within 5 s of Stop's answer (locally, before it).
    const listener = new RtmpPlayer(`${stack.urls.rtmp}/${ida.key}`);
    await listener.receiving();
    const stopped = await api(stack, 'POST', `/streams/${streamId}/stop`, { token: ida.token });
    const answeredAt = Date.now();
    expect(stopped.body).toMatchObject({ status: 'stopped' });
    // The task and its ffmpeg were gone before the answer.
    expect(streamTaskProcesses(streamId)).toEqual([]);
    expect(publishingFfmpegs(streamId)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const lastPacketAt = listener.snapshot.lastPacketAt!;
    await listener.stop();
    console.log(`[long run] the last packet reached the player ${answeredAt - lastPacketAt} ms before Stop answered`);
    expect(lastPacketAt).toBeLessThan(answeredAt + 5000);
    expect(await rtmpPublishers(stack, ida.key)).toBe(0);
    expect(await noMediaWithin(`${stack.urls.rtmp}/${ida.key}`, 5)).toBe(true);
    expect(streamTaskProcesses(streamId)).toEqual([]);
  },
  (RUN_SECONDS + 180) * 1000,
);
