// Uploads started, completed, failed and their duration: the recording itself (pure), then what the tus server
// records for a real upload, a refused one and one whose registration fails.
import { randomBytes } from 'node:crypto';
import { metricNames, type MetricName } from '../contract/metrics';
import { AppError } from '../core/errors';
import {
  createTestStorage,
  MiB,
  QUOTA_BYTES,
  startTestOrigin,
  testHooks,
  tokens,
  tusHeaders,
  tusUpload,
  type TestOrigin,
  type TestStorage,
} from '../../test/helpers/upload-server';
import { uploadMetrics, uploadSeconds, type MetricSink } from './upload-metrics';

type Recorded = [kind: 'count' | 'seconds', name: MetricName, value: number];

function recordingSink(): MetricSink & { recorded: Recorded[] } {
  const recorded: Recorded[] = [];
  return {
    recorded,
    count: (name, value = 1) => void recorded.push(['count', name, value]),
    seconds: (name, value) => void recorded.push(['seconds', name, value]),
  };
}

describe('upload metrics', () => {
  const lastByteAt = new Date('2025-03-01T10:02:30.500Z');

  test('the duration is the seconds from the creation time to the last byte', () => {
    expect(uploadSeconds('2025-03-01T10:00:00.000Z', lastByteAt)).toBe(150.5);
    // Another container's clock a little ahead: no negative durations.
    expect(uploadSeconds('2025-03-01T10:02:31.000Z', lastByteAt)).toBe(0);
    expect(uploadSeconds(undefined, lastByteAt)).toBeUndefined();
    expect(uploadSeconds('yesterday-ish', lastByteAt)).toBeUndefined();
  });

  test('started, the duration, completed and failed go to the sink under the contract names', () => {
    const sink = recordingSink();
    const metrics = uploadMetrics(sink, () => lastByteAt);
    metrics.started();
    metrics.lastByteStored('2025-03-01T10:00:00.000Z');
    metrics.finished('completed');
    metrics.lastByteStored(undefined);
    metrics.finished('failed');
    expect(sink.recorded).toEqual([
      ['count', metricNames.uploadsStarted, 1],
      ['seconds', metricNames.uploadSeconds, 150.5],
      ['count', metricNames.uploadsCompleted, 1],
      // An upload without a readable creation time has no duration, but its outcome still counts.
      ['count', metricNames.uploadsFailed, 1],
    ]);
  });
});

describe('what the upload server records', () => {
  /** The metrics' clock runs a minute ahead of the store's: the duration shows it came from the creation time. */
  const AHEAD_MS = 60_000;
  let storage: TestStorage;
  let origin: TestOrigin;
  let sink: ReturnType<typeof recordingSink>;
  let failRegistration = false;

  beforeAll(async () => {
    storage = await createTestStorage();
    const hooks = testHooks();
    const register = hooks.onUploadFinished;
    origin = await startTestOrigin(
      storage,
      {
        ...hooks,
        onUploadFinished: async (upload) => {
          if (failRegistration) throw new Error('the table is gone');
          await register(upload);
        },
      },
      {
        metrics: uploadMetrics(
          { count: (name, value) => sink.count(name, value), seconds: (name, value) => sink.seconds(name, value) },
          () => new Date(Date.now() + AHEAD_MS),
        ),
      },
    );
  });
  beforeEach(() => {
    sink = recordingSink();
    failRegistration = false;
  });
  afterAll(async () => {
    await origin.stop();
    storage.stop();
  });

  const names = () => sink.recorded.map(([, name]) => name);

  test('a finished upload: started, its duration from creation to the last byte, completed', async () => {
    const before = Date.now();
    await tusUpload(randomBytes(5 * MiB), { endpoint: origin.endpoint, token: tokens.alice });
    const elapsed = (Date.now() - before) / 1000;
    expect(names()).toEqual([metricNames.uploadsStarted, metricNames.uploadSeconds, metricNames.uploadsCompleted]);
    const seconds = sink.recorded[1]![2];
    expect(seconds).toBeGreaterThanOrEqual(AHEAD_MS / 1000);
    expect(seconds).toBeLessThanOrEqual(AHEAD_MS / 1000 + elapsed + 1);
  });

  test('a creation the plan refuses records nothing: it is neither started nor failed', async () => {
    for (const [token, length] of [
      [tokens.carol, MiB],
      [tokens.alice, QUOTA_BYTES + 1],
    ] as const) {
      const response = await fetch(origin.endpoint, {
        method: 'POST',
        headers: { ...tusHeaders(token), 'Upload-Length': String(length), 'Upload-Metadata': 'filename YS5tcDQ=,kind dmlkZW8=' },
      });
      expect(response.status).toBe(new AppError(token === tokens.carol ? 'no active subscription' : 'storage limit').status);
    }
    expect(sink.recorded).toEqual([]);
  });

  test('an upload whose registration throws after its last byte: started, its duration, failed', async () => {
    failRegistration = true;
    await expect(tusUpload(randomBytes(MiB), { endpoint: origin.endpoint, token: tokens.alice })).rejects.toBeDefined();
    expect(names()).toEqual([metricNames.uploadsStarted, metricNames.uploadSeconds, metricNames.uploadsFailed]);
  });

  test('an unfinished upload is started only', async () => {
    const response = await fetch(origin.endpoint, {
      method: 'POST',
      headers: { ...tusHeaders(tokens.bob), 'Upload-Length': String(MiB), 'Upload-Metadata': 'filename YS5tcDQ=,kind dmlkZW8=' },
    });
    expect(response.status).toBe(201);
    expect(names()).toEqual([metricNames.uploadsStarted]);
  });
});
