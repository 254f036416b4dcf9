// The local RunTask refuses what ECS refuses for the plane, so the local stack fails as AWS would if the lifecycle
// definition sent one data plane's parameters to the other.
import { runTaskProblem } from './stream-runner';

const overrides = { ContainerOverrides: [{ Name: 'stream-task', Environment: [] }] };
const fargate = {
  CapacityProviderStrategy: [{ CapacityProvider: 'FARGATE', Weight: 1 }],
  NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'ENABLED' } },
  Overrides: overrides,
};
const external = { LaunchType: 'EXTERNAL', PlacementStrategy: [{ Type: 'spread', Field: 'instanceId' }], Overrides: overrides };

test('each plane takes its own parameters', () => {
  expect(runTaskProblem('fargate', fargate)).toBeUndefined();
  expect(runTaskProblem('fargate', { ...fargate, Overrides: { ...overrides, EphemeralStorage: { SizeInGiB: 48 } } })).toBeUndefined();
  expect(runTaskProblem('external', external)).toBeUndefined();
});

test("ECS Anywhere refuses Fargate's capacity provider, awsvpc networking and disk; Fargate needs them", () => {
  expect(runTaskProblem('external', fargate)).toBe('launch type (none) on ECS Anywhere hosts');
  expect(runTaskProblem('external', { ...external, CapacityProviderStrategy: fargate.CapacityProviderStrategy })).toMatch(/capacity provider/);
  expect(runTaskProblem('external', { ...external, NetworkConfiguration: fargate.NetworkConfiguration })).toMatch(/awsvpc/);
  expect(runTaskProblem('external', { ...external, Overrides: { ...overrides, EphemeralStorage: { SizeInGiB: 48 } } })).toMatch(/ephemeral storage/);
  expect(runTaskProblem('fargate', external)).toMatch(/launch type EXTERNAL/);
  expect(runTaskProblem('fargate', { Overrides: overrides })).toBe('no capacity provider');
  expect(runTaskProblem('fargate', { ...fargate, Overrides: { ...overrides, EphemeralStorage: { SizeInGiB: 20 } } })).toBe('ephemeral storage of 20 GiB');
  expect(runTaskProblem('fargate', { ...fargate, Overrides: { ...overrides, EphemeralStorage: { SizeInGiB: 201 } } })).toBe('ephemeral storage of 201 GiB');
});
