// EventBridge -> "MediaConvert Job State Change" events of this stage's queue: progress, completion and failure
// of transcodes, applied to the media library (progress pushed to the browser, items made ready or failed).
import middy from '@middy/core';
import { depsFromEnvironment, type Deps } from '../adapters/deps';
import { observability } from '../adapters/observability';
import { mediaConvertTranscoderOf } from '../wiring/media';

export function createJobStateHandler(deps: () => Deps | Promise<Deps>): (event: unknown) => Promise<void> {
  const handle = async (event: unknown) => {
    await mediaConvertTranscoderOf(await deps()).handleJobStateChange(event);
  };
  return middy().use(observability()).handler(handle) as unknown as (event: unknown) => Promise<void>;
}

export const handler = createJobStateHandler(depsFromEnvironment);
