// What one stream-task runs, given to it as JSON: in the environment variable LOOPCAST_STREAM_SPEC (preferred:
// a process's environment is private, its command line is not, and URLs carry stream keys) or as the first
// command-line argument.
import { z } from 'zod';
import { AppError } from '../../lambdas/core/errors';
import { normalizeRestartSchedule } from '../../lambdas/core/restart-schedule';

export const streamTaskSpecSchema = z.object({
  streamId: z.string().min(1),
  /** `s3://bucket/key` or a local path. */
  video: z.string().min(1),
  /** A separate audio track (`s3://` or a path); the video's own audio is then not used. */
  audio: z.string().min(1).optional(),
  destinations: z
    .array(
      z.object({
        id: z.string().min(1),
        /** Full publish URL including the stream key, e.g. rtmp://a.rtmp.youtube.com/live2/<key>. */
        url: z.string().regex(/^rtmps?:\/\/[^/\s]+\/\S+$/i, 'must be an rtmp:// or rtmps:// URL with an application and stream key'),
      }),
    )
    .min(1),
  /** "HH:MM" in timeZone. */
  restartTimes: z.array(z.string()).default([]),
  timeZone: z.string().default('UTC'),
});

export type StreamTaskSpec = z.output<typeof streamTaskSpecSchema>;
export type StreamTaskSpecInput = z.input<typeof streamTaskSpecSchema>;

/** Validated and normalised; errors name the field but never echo values (they may hold stream keys). */
export function parseStreamTaskSpec(json: string): StreamTaskSpec {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('the stream spec is not valid JSON');
  }
  const result = streamTaskSpecSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`the stream spec is not valid: ${problems.join('; ')}`);
  }
  const spec = result.data;
  if (new Set(spec.destinations.map((d) => d.id)).size !== spec.destinations.length) throw new Error('the stream spec is not valid: destination ids must be unique');
  try {
    const schedule = normalizeRestartSchedule({ times: spec.restartTimes, timeZone: spec.timeZone });
    return { ...spec, restartTimes: schedule.times, timeZone: schedule.timeZone };
  } catch (error) {
    if (error instanceof AppError) throw new Error(`the stream spec is not valid: ${String(error.details?.field)}: ${error.message}`);
    throw error;
  }
}

export function readStreamTaskSpec(argv: readonly string[], env: NodeJS.ProcessEnv): StreamTaskSpec {
  const json = env.LOOPCAST_STREAM_SPEC ?? argv[0];
  if (!json) throw new Error('no stream spec: set LOOPCAST_STREAM_SPEC to its JSON (or pass it as the first argument)');
  return parseStreamTaskSpec(json);
}
