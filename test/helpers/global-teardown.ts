import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const standIns = (globalThis as { loopcastTestStandIns?: { stop(): Promise<void> }[] }).loopcastTestStandIns ?? [];
  for (const standIn of standIns) await standIn.stop();
  // Retries: a process of the last test file may still be closing files in it.
  if (process.env.LOOPCAST_TEST_DIR) rmSync(process.env.LOOPCAST_TEST_DIR, { recursive: true, force: true, maxRetries: 5 });
}
