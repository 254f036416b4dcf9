import { jest } from '@jest/globals';
import { streamTaskLog } from './log';

/** A logger at `level` whose lines are collected, parsed. */
function collect(level: string) {
  const before = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = level;
  const lines: string[] = [];
  try {
    const log = streamTaskLog((line) => lines.push(line));
    return { ...log, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  } finally {
    process.env.POWERTOOLS_LOG_LEVEL = before;
  }
}

test("a log line is one JSON object with the service, the level and the run's keys", () => {
  const t = collect('INFO');
  t.tag({ streamId: 'st_1', userId: 'u_1', runId: 'run_1' });
  t.log('started (desired running, restarts 0, scheduled 0)');
  t.log('heartbeat not sent: throttled', 'warn');
  expect(t.lines).toHaveLength(2);
  expect(t.lines.every((line) => !line.includes('\n'))).toBe(true);
  expect(t.parsed()).toEqual([
    expect.objectContaining({
      level: 'INFO',
      service: 'stream-task',
      streamId: 'st_1',
      userId: 'u_1',
      runId: 'run_1',
      message: 'started (desired running, restarts 0, scheduled 0)',
      timestamp: expect.any(String),
    }),
    expect.objectContaining({ level: 'WARN', streamId: 'st_1', message: 'heartbeat not sent: throttled' }),
  ]);
});

test('an rtmp URL with a stream key comes out redacted, in the message, in extra keys and in errors', () => {
  const t = collect('INFO');
  t.tag({ streamId: 'st_2' });
  t.log('ffmpeg run 1: rtmp://a.rtmp.youtube.com/live2/abcd-SECRET: Connection refused', 'warn');
  t.log('quoted "rtmps://live.example.com:443/app/key-SECRET" and more');
  t.logger.error('cannot run', { url: 'rtmp://h/live/other-SECRET', error: new Error('publish to rtmp://h/live/err-SECRET failed') });
  const all = t.lines.join('\n');
  expect(all).not.toContain('SECRET');
  const [first, second, third] = t.parsed();
  expect(first).toMatchObject({ streamId: 'st_2', message: 'ffmpeg run 1: rtmp://a.rtmp.youtube.com/live2/***: Connection refused' });
  expect(second).toMatchObject({ message: 'quoted "rtmps://live.example.com:443/app/***" and more' });
  expect(third).toMatchObject({ url: 'rtmp://h/live/***', error: { message: 'publish to rtmp://h/live/*** failed' } });
});

test('the level comes from POWERTOOLS_LOG_LEVEL, and nothing is written to stdout (it carries heartbeats)', () => {
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const quiet = collect('WARN');
    quiet.log('an info line');
    quiet.log('a warning', 'warn');
    expect(quiet.parsed().map((line) => line.message)).toEqual(['a warning']);
    const silent = collect('SILENT');
    silent.log('an error', 'error');
    expect(silent.lines).toEqual([]);
    expect(stdout).not.toHaveBeenCalled();
  } finally {
    stdout.mockRestore();
  }
});

test('by default lines go to stderr', () => {
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const before = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  try {
    streamTaskLog().log('to stderr rtmp://h/live/k-SECRET');
    const written = String(stderr.mock.calls[0]?.[0]);
    expect(written.endsWith('}\n')).toBe(true);
    expect(JSON.parse(written)).toMatchObject({ message: 'to stderr rtmp://h/live/***' });
  } finally {
    process.env.POWERTOOLS_LOG_LEVEL = before;
    stderr.mockRestore();
  }
});
