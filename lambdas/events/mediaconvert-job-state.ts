// EventBridge -> "MediaConvert Job State Change" events of this stage's queue: progress, completion and failure
// of transcodes, applied to the media library (progress pushed to the browser, items made ready or failed).
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { observability } from '../adapters/observability';

import { MediaConvertTranscoder } from '../adapters/transcoder/mediaconvert-transcoder';
import { transcoderOf } from '../wiring/media';

export function createJobStateHandler(deps: () => Deps | Promise<Deps>): (event: unknown) => Promise<void> {
  const handle = async (event: unknown) => {
    const transcoder = transcoderOf(await deps());
    if (!(transcoder instanceof MediaConvertTranscoder)) throw new Error('MediaConvert events reached a stack that transcodes with ffmpeg');
    await transcoder.handleJobStateChange(event);
  };
  return middy().use(observability()).handler(handle) as unknown as (event: unknown) => Promise<void>;
}

export const handler = createJobStateHandler(depsFromEnvironment);
