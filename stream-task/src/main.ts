// The stream-task's entry point (the container's command; a child process in the local stack). In managed mode it
// asks for the run's lease first and loads the task itself (task.ts: the supervisor, the logger, Zod, most of the
// bundle) while the answer is on its way: in AWS the lease is answered by other machines, so the task's load of some
// 60 ms hides behind it (on the local stack's two shared cores it buys nothing: docs/stream-task.md, "Measured").
// Only task-api.ts and what it needs load before the request leaves.
import { leaseManagedRun } from './task-api';

const leasing = leaseManagedRun(process.env);
// A refusal or failure is handled by the task once loaded, not reported as an unhandled rejection meanwhile.
leasing.catch(() => undefined);
const { runTask } = await import('./task');
await runTask(leasing);
