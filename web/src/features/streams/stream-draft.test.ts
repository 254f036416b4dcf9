import { DEFAULT_ATTENTION_MINUTES, streamView, type Stream } from '@loopcast/core/streams/stream';
import { ATTENTION_MINUTES, destinationCheck, draftOf, inputOf, toggleChannel } from './stream-draft';

// A stopped stream as the API shows it.
const stored: Stream = {
  id: 'st_1',
  userId: 'u_1',
  title: 'Lo-fi beats',
  description: 'Chill',
  videoId: 'v1',
  audioId: 'a1',
  channelIds: ['c1', 'c2'],
  restartTimes: ['03:00', '15:00'],
  timeZone: 'Europe/Kyiv',
  desired: 'stopped',
  status: 'stopped',
  restarts: 0,
  createdAt: '2025-06-01T00:00:00Z',
  updatedAt: '2025-06-01T00:00:00Z',
};
const stream = streamView(stored, new Date('2025-06-01T00:00:00Z'));

describe("the stream form's draft", () => {
  test("a new stream starts empty, with no restarts, in the browser's time zone", () => {
    expect(draftOf()).toEqual({
      title: '',
      description: '',
      privacy: 'public',
      videoId: '',
      playlist: { on: false, videoIds: [], shuffle: false },
      audioId: '',
      channelIds: [],
      restartTimes: [],
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      attentionMinutes: '5',
    });
  });

  test('editing starts from the stream, and sends back what the form shows', () => {
    const draft = draftOf(stream);
    expect(draft.restartTimes).toEqual([
      { id: 1, day: '', value: '03:00' },
      { id: 2, day: '', value: '15:00' },
    ]);
    expect(inputOf(draft)).toEqual({
      title: 'Lo-fi beats',
      description: 'Chill',
      privacy: 'public',
      videoId: 'v1',
      playlist: null,
      audioId: 'a1',
      channelIds: ['c1', 'c2'],
      restartTimes: ['03:00', '15:00'],
      timeZone: 'Europe/Kyiv',
      attentionMinutes: 5,
    });
  });

  test('a playlist: its videos and shuffle sent, its first video as the video; turned off, the one video and null', () => {
    const withPlaylist = streamView(
      { ...stored, videoId: 'v2', playlist: { videoIds: ['v2', 'v3'], shuffle: true, revision: 4, apply: 'join' } },
      new Date('2025-06-01T00:00:00Z'),
    );
    const draft = draftOf(withPlaylist);
    expect(draft.playlist).toEqual({ on: true, videoIds: ['v2', 'v3'], shuffle: true });
    expect(inputOf(draft)).toMatchObject({ videoId: 'v2', playlist: { videoIds: ['v2', 'v3'], shuffle: true } });
    expect(inputOf({ ...draft, playlist: { ...draft.playlist, videoIds: ['v3', 'v2'] } })).toMatchObject({ videoId: 'v3' });
    expect(inputOf({ ...draft, playlist: { ...draft.playlist, on: false } })).toMatchObject({ videoId: 'v2', playlist: null });
    // A one-video stream turned into a playlist starts from its video.
    expect(draftOf(stream).playlist).toEqual({ on: false, videoIds: ['v1'], shuffle: false });
  });

  test("the attention time is the stream's own, 5 minutes when it never set one, and is sent as a number", () => {
    expect(draftOf(streamView({ ...stored, attentionMinutes: 12 }, new Date('2025-06-01T00:00:00Z'))).attentionMinutes).toBe('12');
    expect(inputOf({ ...draftOf(stream), attentionMinutes: '30' }).attentionMinutes).toBe(30);
    // A new stream starts with the API's own default.
    expect(ATTENTION_MINUTES.default).toBe(DEFAULT_ATTENTION_MINUTES);
  });

  test("the YouTube privacy is kept when editing (streams made before it existed are public, like the API's default)", () => {
    const unlisted = streamView({ ...stored, privacy: 'unlisted' }, new Date('2025-06-01T00:00:00Z'));
    expect(inputOf(draftOf(unlisted)).privacy).toBe('unlisted');
    expect(inputOf({ ...draftOf(stream), privacy: 'private' }).privacy).toBe('private');
  });

  test('no separate audio is sent as null (the API then removes it); text is trimmed, blank restart rows dropped', () => {
    const draft = { ...draftOf(stream), title: '  Lo-fi  ', audioId: '', timeZone: ' UTC ', restartTimes: [{ id: 1, day: '' as const, value: '' }] };
    expect(inputOf(draft)).toMatchObject({ title: 'Lo-fi', audioId: null, restartTimes: [], timeZone: 'UTC' });
  });

  test('destinations are ticked once each, in the order chosen', () => {
    expect(toggleChannel(['c1'], 'c2', true)).toEqual(['c1', 'c2']);
    expect(toggleChannel(['c1', 'c2'], 'c2', true)).toEqual(['c1', 'c2']);
    expect(toggleChannel(['c1', 'c2'], 'c1', false)).toEqual(['c2']);
  });

  test('at least one destination, and no more than the plan allows', () => {
    expect(destinationCheck([], 1)).toBe('none chosen');
    expect(destinationCheck(['c1'], 1)).toBeUndefined();
    expect(destinationCheck(['c1', 'c2'], 1)).toBe('over plan limit');
    expect(destinationCheck(['c1', 'c2'], 3)).toBeUndefined();
    // The limit is still loading: the API decides.
    expect(destinationCheck(['c1', 'c2'], undefined)).toBeUndefined();
  });
});
