// A CPU profile of this process over a while (the inspector's sampling profiler), summarised: where the time went
// by function and by file, idle and garbage collection apart.
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface ProfileSummary {
  sampledMs: number;
  busyMs: number;
  byFunction: { name: string; ms: number }[];
  byFile: { name: string; ms: number }[];
}

const fileOf = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  return url.replace(/^file:\/\/.*?\/(stream-task|bench|lambdas|local)\//, '$1/') || '(native)';
};

/** Profiles this process while `during` runs. */
export async function profileDuring(during: () => Promise<void>): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    await during();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    const time = new Map<number, number>();
    profile.samples.forEach((id, index) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000));
    const byFunction = new Map<string, number>();
    const byFile = new Map<string, number>();
    let sampledMs = 0;
    let busyMs = 0;
    for (const node of profile.nodes) {
      const ms = time.get(node.id) ?? 0;
      sampledMs += ms;
      // The profiler's own work (serialising the profile) is not the process's.
      if (!ms || node.callFrame.functionName === '(idle)' || node.callFrame.url === 'node:inspector') continue;
      busyMs += ms;
      const file = fileOf(node.callFrame.url);
      // Code run through tsx reports line 0 for every function: its name and file say enough then.
      const line = node.callFrame.lineNumber > 0 ? `:${node.callFrame.lineNumber + 1}` : '';
      const name = `${node.callFrame.functionName || '(anonymous)'} ${file}${line}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
      byFile.set(file, (byFile.get(file) ?? 0) + ms);
    }
    const top = (map: Map<string, number>) =>
      [...map]
        .map(([name, ms]) => ({ name, ms }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 15);
    return { sampledMs, busyMs, byFunction: top(byFunction), byFile: top(byFile) };
  } finally {
    session.disconnect();
  }
}
