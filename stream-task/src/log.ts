// The stream-task's logs: one JSON object per line on stderr (Powertools Logger, like the Lambdas' logger in
// lambdas/adapters/logger.ts), with the run's keys (streamId, and in managed mode userId and runId) on every line.
// stdout is not touched: in standalone mode it carries the heartbeats (JsonLinesHeartbeatSink), and Powertools'
// own console would write info and debug lines there. Every string in a line, the message, extra keys and error
// messages and stacks alike, goes through redactSecrets, so no stream key can reach the log whatever the caller
// passed. Level from POWERTOOLS_LOG_LEVEL (INFO when unset, as in the task definition).
import { Logger, type LogItem } from '@aws-lambda-powertools/logger';
import { redactSecrets } from './ffmpeg';

export const STREAM_TASK_SERVICE = 'stream-task';

export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';
/** What the supervisor and the entry point log through: a message, its level (info when not given) and keys of
 * its own. */
export type LogFn = (message: string, level?: LogLevelName, keys?: Record<string, unknown>) => void;

/** Where finished lines go (without the newline); stderr by default, an array in tests. */
export type LineWriter = (line: string) => void;

const writeStderr: LineWriter = (line) => process.stderr.write(`${line}\n`);

class StreamTaskLogger extends Logger {
  // Assigned after super(): lines the base constructor prints while it initialises go to stderr.
  private writer?: LineWriter;

  constructor(serviceName: string, writer: LineWriter) {
    super({ serviceName });
    this.writer = writer;
  }

  /** Replaces Powertools' console (info to stdout, warn and error to stderr; indented when POWERTOOLS_DEV is
   * set): one line, redacted, to the writer. Level filtering has happened before this is called. */
  protected override printLog(_logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    const replacer = this.getJsonReplacer();
    const line = JSON.stringify(log.getAttributes(), function (this: unknown, key: string, value: unknown) {
      const replaced = replacer.call(this, key, value) as unknown;
      return typeof replaced === 'string' ? redactSecrets(replaced) : replaced;
    });
    (this.writer ?? writeStderr)(line);
  }
}

export interface StreamTaskLog {
  readonly logger: Logger;
  /** Adds keys to every following line (streamId, userId, runId). */
  tag(keys: Record<string, string>): void;
  log: LogFn;
}

export function streamTaskLog(writer: LineWriter = writeStderr): StreamTaskLog {
  const logger = new StreamTaskLogger(STREAM_TASK_SERVICE, writer);
  return {
    logger,
    tag: (keys) => logger.appendPersistentKeys(keys),
    log: (message, level = 'info', keys) => (keys ? logger[level](message, keys) : logger[level](message)),
  };
}
