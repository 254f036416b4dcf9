// One runner for everything: jest in native ESM mode (Node's --experimental-vm-modules, set by
// scripts/run.mjs) with @swc/jest compiling TypeScript. The global setup starts the real stand-ins once per run
// (DynamoDB Local in memory, s3rver) and fails the whole run when a real component is missing.
import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2023',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'es6' },
  },
];

const project = (displayName: string, roots: string[], extra: Partial<Config> = {}) => ({
  displayName,
  roots: roots.map((r) => `<rootDir>/${r}`),
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.tsx?$': swc },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/helpers/setup-env.ts'],
  ...extra,
  // The web app's paths to what it shares with the server (web/tsconfig.json).
  moduleNameMapper: { '^@loopcast/(contract|core)/(.*)$': '<rootDir>/lambdas/$1/$2', ...extra.moduleNameMapper },
});

const config: Config = {
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  testTimeout: 30_000,
  // Four test files at a time on CI's two cores: much of the suite's time is real-time waiting (long runs, schedules,
  // playlists, outages, streams going live) that leaves a core idle. Three workers kept the cores 143 % busy and took
  // 1,424 s; four, 162 % and 1,277 s (2026-12-01). Five took as long as four (1,282 s against 1,286, 2026-12-02).
  maxWorkers: 4,
  // A worker keeps what every file it ran loaded (jest's ESM module registries are not all freed): over a run its
  // heap grew to gigabytes and each garbage collection with it, until a CDK test file that costs 15 CPU-s alone cost
  // 130 in the suite. A worker past this much heap after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '512MB',
  testSequencer: '<rootDir>/test/helpers/longest-first-sequencer.cjs',
  projects: [
    project('cdk', ['lib']),
    project('lambdas', ['lambdas', 'test/api', 'test/fakes']),
    project('stream-task', ['stream-task']),
    project('local', ['local']),
    // Vite turns `*.svg?no-inline` into a URL; jest gets a fixed one. Jest's ESM loader drops the query before it
    // maps, so the pattern matches the path with or without it.
    project('web', ['web/src'], { moduleNameMapper: { '\\.svg(\\?no-inline)?$': '<rootDir>/test/helpers/asset-stub.cjs' } }),
    project('e2e', ['test/e2e'], { testEnvironment: '<rootDir>/test/helpers/e2e-environment.cjs' }),
  ],
};

export default config;
