import { parseStreamTaskSpec, readStreamTaskSpec } from './spec';

const valid = {
  streamId: 'st_1',
  video: 's3://media/media/u1/v1/stream.mp4',
  destinations: [{ id: 'yt', url: 'rtmp://a.rtmp.youtube.com/live2/secret-key' }],
};

describe('stream spec', () => {
  test('defaults and normalised restart times', () => {
    expect(parseStreamTaskSpec(JSON.stringify(valid))).toEqual({ ...valid, restartTimes: [], timeZone: 'UTC' });
    expect(parseStreamTaskSpec(JSON.stringify({ ...valid, restartTimes: ['18:00', '6:00'], timeZone: 'Europe/Kyiv' }))).toMatchObject({
      restartTimes: ['06:00', '18:00'],
      timeZone: 'Europe/Kyiv',
    });
  });

  test('errors name the field and never echo a stream key', () => {
    const bad = { ...valid, destinations: [{ id: 'yt', url: 'http://example.com/secret-key' }] };
    expect(() => parseStreamTaskSpec(JSON.stringify(bad))).toThrow(/^the stream spec is not valid: destinations\.0\.url: must be an rtmp/);
    try {
      parseStreamTaskSpec(JSON.stringify(bad));
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-key');
    }
    expect(() => parseStreamTaskSpec('{')).toThrow('the stream spec is not valid JSON');
    expect(() => parseStreamTaskSpec(JSON.stringify({ ...valid, destinations: [] }))).toThrow(/destinations/);
    expect(() => parseStreamTaskSpec(JSON.stringify({ ...valid, destinations: [valid.destinations[0], valid.destinations[0]] }))).toThrow(
      'destination ids must be unique',
    );
    expect(() => parseStreamTaskSpec(JSON.stringify({ ...valid, restartTimes: ['06:00', '6:00'] }))).toThrow(
      'restartTimes: You have two restart times scheduled for the same time',
    );
    expect(() => parseStreamTaskSpec(JSON.stringify({ ...valid, timeZone: 'Nowhere/City' }))).toThrow('timeZone: Please enter a valid number');
  });

  test('read from LOOPCAST_STREAM_SPEC first, else the first argument', () => {
    const other = { ...valid, streamId: 'from-arg' };
    expect(readStreamTaskSpec([JSON.stringify(other)], { LOOPCAST_STREAM_SPEC: JSON.stringify(valid) }).streamId).toBe('st_1');
    expect(readStreamTaskSpec([JSON.stringify(other)], {}).streamId).toBe('from-arg');
    expect(() => readStreamTaskSpec([], {})).toThrow('no stream spec');
  });
});
