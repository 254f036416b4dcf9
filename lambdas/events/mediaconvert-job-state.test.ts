// The Lambda that EventBridge hands MediaConvert's job state changes to, on a local stack whose Deps transcode with
// MediaConvert as an AWS stage's do (the SDK's client is made, never called: an event needs no request to
// MediaConvert). An item still `encoding` takes the event's progress and then its failure, as the creator sees it
// through the API.
import { MediaConvertClient } from '@aws-sdk/client-mediaconvert';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../wiring/deps';
import { localCredentials } from '../adapters/aws-clients';
import { videoKey } from '../adapters/dynamo/keys';
import { MediaConvertTranscoder } from '../adapters/transcoder/mediaconvert-transcoder';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../../test/helpers/accounts';
import { holdTranscodes, type HeldTranscodes } from '../../test/helpers/held-transcodes';
import { makeClip, uploadWithTus } from '../../test/helpers/media';
import { startTestStack } from '../../test/helpers/stack';
import { jobEvent } from '../../test/helpers/transcode-fixtures';
import { createJobStateHandler } from './mediaconvert-job-state';

let stack: LocalStack;
let held: HeldTranscodes;
beforeAll(async () => {
  stack = await startTestStack();
  held = holdTranscodes(stack);
});
let userId: string | undefined;
afterAll(async () => {
  if (userId) await held.release(userId);
  await stack.stop();
});

function deployedDeps(): Deps {
  return {
    ...stack.deps,
    makeTranscoder: (onUpdate) =>
      new MediaConvertTranscoder({
        mediaConvert: new MediaConvertClient({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: localCredentials }),
        s3: stack.deps.s3,
        bucket: stack.config.buckets.media,
        roleArn: 'arn:aws:iam::111122223333:role/loopcast-test-mediaconvert',
        queueArn: 'arn:aws:mediaconvert:us-east-1:111122223333:queues/Loopcast-test',
        onUpdate,
      }),
  };
}

// The upload is transcoded for real, by ffmpeg at niceness 10 (so a stack's stream loops come first): beside the
// suite's CPU-bound files on two cores, that took over 30 s in CI. The same budget as the other transcoding tests.
test("a job's progress and failure reach the item they name", async () => {
  const user = await signedInUser(stack, 'mediaconvert');
  userId = user.userId;
  held.hold(user.userId);
  const videoId = await uploadWithTus(stack, user.token, (await makeClip({ seconds: 2 })).bytes);
  await held.ended(videoId);
  // The local transcode's own progress reached the item first; a job's progress only ever moves it forward.
  await stack.deps.db.send(
    new UpdateCommand({
      TableName: stack.config.tables.app,
      Key: videoKey(user.userId, videoId),
      UpdateExpression: 'SET progress = :zero',
      ExpressionAttributeValues: { ':zero': 0 },
    }),
  );
  const handle = createJobStateHandler(deployedDeps);
  const userMetadata = { userId: user.userId, videoId, kind: 'video', outputPrefix: `media/${user.userId}/${videoId}/` };

  await handle(jobEvent({ status: 'STATUS_UPDATE', userMetadata, jobProgress: { jobPercentComplete: 42, currentPhase: 'TRANSCODING' } }));
  expect((await api(stack, 'GET', `/videos/${videoId}`, { token: user.token })).body).toMatchObject({ status: 'encoding', progress: 42 });

  await handle(jobEvent({ status: 'ERROR', userMetadata, errorCode: 1030, errorMessage: 'Unsupported codec' }));
  expect((await api(stack, 'GET', `/videos/${videoId}`, { token: user.token })).body).toMatchObject({
    status: 'failed',
    error: { key: 'uploader encode error' },
  });
  // The held local outcome arrives after the final one and changes nothing.
  await held.release(user.userId);
  userId = undefined;
  expect((await api(stack, 'GET', `/videos/${videoId}`, { token: user.token })).body).toMatchObject({
    status: 'failed',
    error: { key: 'uploader encode error' },
  });
}, 120_000);

test('events reaching a stack that transcodes with ffmpeg are an error, not silently dropped', async () => {
  await expect(createJobStateHandler(() => stack.deps)(jobEvent({ status: 'ERROR', errorCode: 1030, errorMessage: 'x' }))).rejects.toThrow(
    /transcodes with ffmpeg/,
  );
});
