// Test files longest first, so no long file starts when the others are done (the suite's wall time is the longest
// worker's). Jest orders by the durations its cache holds, and by file size without them, which is what a clean
// CI checkout has: the real-time tests are small files that ran for minutes at the end of the run, the other
// workers idle (long-run.test.ts finished last, 231 s, in a clean run of 2026-11-28). Without a cached duration, a
// file's duration comes from test-durations.json (seconds of a clean run on 2 cores: files of 30 s or more), and
// files in neither go after them in Jest's own order. Update the table when a file's duration changes a lot.
const { relative } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;
const durations = require('./test-durations.json');

class LongestFirstSequencer extends TestSequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const weight = (test) => this.time(test) ?? (durations[relative(test.context.config.rootDir, test.path)] ?? 0) * 1000;
    return ordered
      .map((test, index) => ({ test, index, weight: weight(test) }))
      .sort((a, b) => b.weight - a.weight || a.index - b.index)
      .map(({ test }) => test);
  }
}

module.exports = LongestFirstSequencer;
