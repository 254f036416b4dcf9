import { taskFailureReason } from './lifecycle';

describe('task failure reasons', () => {
  test("ECS's stop reason and the container's exit code, from Step Functions' error", () => {
    const cause = JSON.stringify({ StoppedReason: 'Essential container in task exited', Containers: [{ ExitCode: 137, Reason: 'OutOfMemoryError' }] });
    expect(taskFailureReason({ Error: 'States.TaskFailed', Cause: cause })).toBe('Essential container in task exited; OutOfMemoryError; exit code 137');
  });

  test('no error, an unparsable cause, an empty cause', () => {
    expect(taskFailureReason(null)).toBeUndefined();
    expect(taskFailureReason({ Error: 'States.Timeout', Cause: 'not json' })).toBe('States.Timeout');
    expect(taskFailureReason({ Error: 'States.TaskFailed', Cause: '{}' })).toBe('States.TaskFailed');
  });
});
