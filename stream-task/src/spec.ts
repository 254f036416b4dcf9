// What one stream-task runs, given to it as JSON: in the environment variable LOOPCAST_STREAM_SPEC (preferred:
// a process's environment is private, its command line is not, and URLs carry stream keys) or as the first
// command-line argument.
import { streamTaskSpecSchema, type StreamTaskSpec } from '../../lambdas/contract/stream-task';
import { AppError } from '../../lambdas/core/errors';
import { normalizeRestartSchedule } from '../../lambdas/core/restart-schedule';

/** The spec from its JSON text (the environment or the command line), validated as `validStreamTaskSpec` does. */
export function parseStreamTaskSpec(json: string): StreamTaskSpec {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('the stream spec is not valid JSON');
  }
  return validStreamTaskSpec(value);
}

/** Validated and normalised (also the task API's answer in managed mode); errors name the field but never echo
 * values (they may hold stream keys). */
export function validStreamTaskSpec(value: unknown): StreamTaskSpec {
  const result = streamTaskSpecSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`the stream spec is not valid: ${problems.join('; ')}`);
  }
  const spec = result.data;
  if (new Set(spec.destinations.map((d) => d.id)).size !== spec.destinations.length)
    throw new Error('the stream spec is not valid: destination ids must be unique');
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
