// What AWS keeps going by itself while no API code runs: Step Functions executions (the stream loops) and
// MediaConvert jobs. Locally both live in the `npm start` process, so when it starts again it picks up what the
// last one left behind: running streams get their loop back, items left `encoding` are transcoded again.
import type { Deps } from '../lambdas/wiring/deps';
import { scanAll } from '../lambdas/adapters/dynamo/pages';
import type { Video } from '../lambdas/core/media/videos';
import { relaunch } from '../lambdas/core/streams/reconcile';
import { startTranscode } from '../lambdas/core/media/library';
import { libraryContext } from '../lambdas/wiring/media';
import { streamsContext } from '../lambdas/wiring/streams';

export async function resumeInterruptedWork(deps: Deps): Promise<{ streams: number; transcodes: number }> {
  const context = streamsContext(deps);
  let streams = 0;
  for (const { userId, streamId } of await context.streams.running()) {
    const stream = await context.streams.get(userId, streamId);
    if (!stream?.runId) continue;
    if (stream.status === 'pending' || stream.status === 'started') {
      // Its execution went with the last process (and its task with it): a fresh one carries the run on.
      if (await relaunch(context, stream)) streams++;
    } else if (stream.status === 'stopping') {
      // Its task went with the last process: the stop is done.
      await context.streams.finishRun(userId, streamId, stream.runId, stream.lastError, deps.now());
    }
  }

  let transcodes = 0;
  for (const video of await videosLeftEncoding(deps)) {
    await startTranscode(libraryContext(deps), video);
    transcodes++;
  }
  return { streams, transcodes };
}

/** A scan: fine for one machine's data, and there is no index of items by status (AWS never needs one). */
async function videosLeftEncoding(deps: Deps): Promise<Video[]> {
  return (await scanAll(deps.db, {
    TableName: deps.config.tables.app,
    FilterExpression: 'begins_with(sk, :video) AND #status = :encoding',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':video': 'VIDEO#', ':encoding': 'encoding' },
  })) as unknown as Video[];
}
