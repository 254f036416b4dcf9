import { ApiError } from '../../api/client';
import { formProblemOf } from './form-problems';

describe('API refusals on the stream form', () => {
  test('duplicate and impossible restart times go to the restart times, with the refused value', () => {
    expect(formProblemOf(new ApiError('duplicate restart times', 422, { field: 'restartTimes', value: '03:00' }))).toEqual({
      field: 'restartTimes',
      key: 'duplicate restart times',
      value: '03:00',
    });
    expect(formProblemOf(new ApiError('invalid number', 422, { field: 'timeZone', value: 'Mars/Olympus' }))).toEqual({
      field: 'timeZone',
      key: 'invalid number',
      value: 'Mars/Olympus',
    });
  });

  test('schedule refusals go to the schedule, with the part they name', () => {
    expect(formProblemOf(new ApiError('schedule time passed', 422, { field: 'schedule.startAt', value: '2020-01-01T10:00' }))).toEqual({
      field: 'schedule',
      key: 'schedule time passed',
      value: '2020-01-01T10:00',
      path: 'schedule.startAt',
    });
    expect(formProblemOf(new ApiError('schedule windows overlap', 422, { field: 'schedule.windows' }))).toEqual({
      field: 'schedule',
      key: 'schedule windows overlap',
      path: 'schedule.windows',
    });
  });

  test("a second destination without multistreaming, or a video a destination's platform cannot take, goes to the destinations", () => {
    expect(formProblemOf(new ApiError('plan feature unavailable', 403, { feature: 'multistreaming' }))).toEqual({
      field: 'channelIds',
      key: 'plan feature unavailable',
    });
    expect(formProblemOf(new ApiError('destination limits exceeded', 422, { channelId: 'c1', preset: 'kick', findings: [] }))).toEqual({
      field: 'channelIds',
      key: 'destination limits exceeded',
    });
  });

  test('schema refusals go to the first field they name, indexes dropped', () => {
    expect(formProblemOf(new ApiError('invalid request', 400, { fields: { 'restartTimes.1': 'Too big' } }))).toEqual({
      field: 'restartTimes',
      key: 'invalid request',
    });
    expect(formProblemOf(new ApiError('not found', 404, { field: 'videoId' }))).toEqual({ field: 'videoId', key: 'not found' });
    expect(
      formProblemOf(
        new ApiError('invalid request', 400, { fields: { playlist: 'every video needs the same picture size and frame rate' }, videoIds: ['v2', 7] }),
      ),
    ).toEqual({ field: 'playlist', key: 'invalid request', videoIds: ['v2'] });
    expect(formProblemOf(new ApiError('invalid request', 400, { fields: { privacy: 'Invalid enum value' } }))).toEqual({
      field: 'privacy',
      key: 'invalid request',
    });
  });

  test("anything else is the form's: a running stream, an unknown field, a network failure", () => {
    expect(formProblemOf(new ApiError('stream started', 409))).toEqual({ key: 'stream started' });
    expect(formProblemOf(new ApiError('invalid request', 400, { fields: { '(body)': 'Required' } }))).toEqual({ key: 'invalid request' });
    expect(formProblemOf(new ApiError('network error', 0))).toEqual({ key: 'network error' });
    expect(formProblemOf(new TypeError('x is undefined'))).toEqual({ key: 'internal error' });
  });
});
