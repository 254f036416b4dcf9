import type { Stream, StreamHealth } from './api/streams-api';
import {
  formatBitrate,
  formatDuration,
  formatRestartAt,
  formatRestartTimes,
  formatScheduledAt,
  formatWindow,
  frameUrl,
  isRunning,
  lastProblem,
  lockReason,
  restartCount,
  statusTone,
  streamWarning,
  uptimeSeconds,
  verdictTone,
} from './stream-display';

const health = (changes: Partial<StreamHealth> = {}): StreamHealth => ({
  actual: 'started',
  uptimeSeconds: 60,
  bitrateKbps: 6012,
  fps: 30,
  speed: 1,
  loops: 4,
  taskRestarts: 0,
  scheduledRestarts: 0,
  destinations: [],
  at: '2025-06-01T10:00:00.000Z',
  ...changes,
});

describe('stream state on the page', () => {
  test('badges: live is good, transitions are busy, a stopped stream is idle', () => {
    expect(statusTone).toEqual({ stopped: 'idle', encoding: 'busy', pending: 'busy', started: 'good', stopping: 'busy' });
    expect(verdictTone).toEqual({ healthy: 'good', degraded: 'warning', recovering: 'busy', offline: 'bad' });
    expect(['stopped', 'encoding', 'pending', 'started', 'stopping'].filter((s) => isRunning(s as Stream['status']))).toEqual([
      'encoding',
      'pending',
      'started',
      'stopping',
    ]);
  });

  test("editing is refused with the API's reason in every running state", () => {
    expect(lockReason('stopped')).toBeUndefined();
    expect(lockReason('pending')).toBe('stream pending');
    expect(lockReason('stopping')).toBe('stream pending');
    expect(lockReason('encoding')).toBe('stream encoding');
    expect(lockReason('started')).toBe('stream started');
  });

  test("the last problem is a catalogue key to translate or the task's own reason", () => {
    expect(lastProblem({ status: 'stopped', lastError: 'uploader encode error' })).toEqual({ key: 'uploader encode error' });
    expect(lastProblem({ status: 'started', health: health({ lastError: 'destination ch_1 failed: Connection refused' }) })).toEqual({
      reason: 'destination ch_1 failed: Connection refused',
    });
    // A stopped stream's old heartbeat is history, not a problem now.
    expect(lastProblem({ status: 'stopped', health: health({ lastError: 'stalled' }) })).toBeUndefined();
    expect(lastProblem({ status: 'started', health: health() })).toBeUndefined();
  });

  test("a destination whose TLS certificate was refused: the task's reason quotes the catalogue key, shown translated", () => {
    const reason = 'destination ch_1 failed: destination certificate refused (the certificate is not for this server name (Host: x))';
    expect(lastProblem({ status: 'started', health: health({ lastError: reason }) })).toEqual({ key: 'destination certificate refused' });
    expect(lastProblem({ status: 'started', health: health({ lastError: `ffmpeg exited with code 1: ${reason.slice(24)}` }) })).toEqual({
      key: 'destination certificate refused',
    });
  });

  test("a running stream's warning is shown (translated when it is a catalogue key), a stopped one has none", () => {
    expect(streamWarning({ status: 'started', warning: 'Google refresh token error' })).toEqual({ key: 'Google refresh token error' });
    expect(streamWarning({ status: 'pending', warning: 'thumbnail save failed' })).toEqual({ key: 'thumbnail save failed' });
    expect(streamWarning({ status: 'started', warning: 'YouTube said no' })).toEqual({ reason: 'YouTube said no' });
    expect(streamWarning({ status: 'started' })).toBeUndefined();
    expect(streamWarning({ status: 'started', warning: '' })).toBeUndefined();
    expect(streamWarning({ status: 'stopped', warning: 'Google refresh token error' })).toBeUndefined();
  });

  test("restarts add the lifecycle's task restarts and the task's ffmpeg restarts", () => {
    expect(restartCount({ restarts: 2 })).toBe(2);
    expect(restartCount({ restarts: 2, health: health({ taskRestarts: 3 }) })).toBe(5);
  });

  test('uptime counts from the first start of the run, only while live', () => {
    const startedAt = '2025-06-01T10:00:00.000Z';
    expect(uptimeSeconds({ status: 'started', startedAt }, Date.parse(startedAt) + 90_500)).toBe(90.5);
    expect(uptimeSeconds({ status: 'pending', startedAt }, Date.parse(startedAt) + 1000)).toBeUndefined();
    expect(uptimeSeconds({ status: 'started' }, Date.now())).toBeUndefined();
  });
});

describe("figures in the page's language", () => {
  test('durations show the largest unit and the next one unless it is zero', () => {
    expect(formatDuration(0, 'en')).toBe('0s');
    // In a sentence, the short units: "off air for 11 min 30 sec".
    expect(formatDuration(690, 'en', 'short')).toBe('11 min 30 sec');
    expect(formatDuration(690, 'uk', 'short')).toBe('11 хв 30 с');
    expect(formatDuration(59.9, 'en')).toBe('59s');
    expect(formatDuration(65, 'en')).toBe('1m 5s');
    expect(formatDuration(3 * 3600 + 59, 'en')).toBe('3h');
    expect(formatDuration(2 * 86_400 + 3 * 3600 + 4 * 60, 'en')).toBe('2d 3h');
    expect(formatDuration(3600 + 120, 'ru')).toBe('1 ч 2 мин');
  });

  test('bitrate in kbit/s, grouped as the language groups digits', () => {
    expect(formatBitrate(6012.4, 'en')).toBe('6,012 kb/s');
    expect(formatBitrate(6012.4, 'ru').replace(/\s/g, ' ')).toBe('6 012 кбит/c');
  });

  test("a scheduled restart reads in the stream's time zone", () => {
    // Midnight UTC on a Monday is 03:00 in Kyiv in summer; the zone's name comes from the browser's time-zone data.
    expect(formatRestartAt('2025-06-02T00:00:00.000Z', 'Europe/Kyiv', 'en-GB')).toMatch(/^Mon, 03:00 \S+$/);
    expect(formatRestartAt('2025-06-01T23:30:00.000Z', 'UTC', 'en-GB')).toBe('Sun, 23:30 UTC');
    expect(formatRestartAt('2025-06-01T23:30:00.000Z', 'UTC', 'en-US')).toMatch(/^Sun, 11:30\sPM UTC$/);
  });

  test("restart times and the next restart share the language's one time style", () => {
    expect(formatRestartTimes(['04:00', '16:30'], 'en-US')).toMatch(/^4:00\sAM and 4:30\sPM$/);
    expect(formatRestartTimes(['04:00', '16:30'], 'ru')).toBe('04:00 и 16:30');
    expect(formatRestartTimes(['04:00'], 'uk')).toBe('04:00');
    const nextInRussian = formatRestartAt('2025-06-02T01:00:00.000Z', 'UTC', 'ru');
    expect(nextInRussian).toContain(formatRestartTimes(['01:00'], 'ru'));
  });

  test("restart times on a weekday and the windows of a weekly timetable name the day in the page's language", () => {
    expect(formatRestartTimes(['04:00', 'sun 16:30'], 'en-US')).toMatch(/^4:00\sAM and Sun 4:30\sPM$/);
    expect(formatRestartTimes(['mon 06:00'], 'ru')).toBe('пн 06:00');
    expect(formatWindow({ day: 'fri', start: '22:00', stop: '02:00' }, 'en-US')).toMatch(/^Fri 10:00\sPM–2:00\sAM$/);
    expect(formatWindow({ day: 'tue', start: '09:00', stop: '17:30' }, 'uk')).toBe('вт 09:00–17:30');
  });

  test("a schedule's next start reads with its weekday within the coming week, with its date further on", () => {
    const now = Date.parse('2025-06-02T10:00:00Z');
    expect(formatScheduledAt('2025-06-04T07:00:00.000Z', 'UTC', 'en-GB', now)).toBe('Wed, 07:00 UTC');
    expect(formatScheduledAt('2025-12-24T07:00:00.000Z', 'UTC', 'en-GB', now)).toBe('24 Dec 2025, 07:00 UTC');
  });
});

describe('the preview frame', () => {
  test('its address changes every minute and keeps its own query (a signed URL)', () => {
    expect(frameUrl('/api/media/st_1/preview', 42)).toBe('/api/media/st_1/preview?frame=42');
    expect(frameUrl('/api/media/st_1/preview?u=1&e=2&s=abc', 43)).toBe('/api/media/st_1/preview?u=1&e=2&s=abc&frame=43');
  });
});
