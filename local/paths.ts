import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Repository root, from which the local stack finds its tools and builds. */
export const repoRoot = resolve(import.meta.dirname, '..');
export const dynamoDbLocalDir = join(repoRoot, '.tools', 'dynamodb-local');
export const webBuildDir = join(repoRoot, 'web', 'build', 'client');
/** Default data folder of `npm start` (git-ignored); tests use temporary folders. */
export const defaultDataDir = join(repoRoot, '.data');

/** Where a running local stack keeps the address of its realtime management API (a random port and path per
 * start, local/realtime-server.ts), for the support tool, which closes and notifies a user's sockets. */
export const realtimeManagementFile = (dataDir: string): string => join(dataDir, 'realtime-management-url');

export const readRealtimeManagementUrl = (dataDir: string): string | undefined =>
  existsSync(realtimeManagementFile(dataDir)) ? readFileSync(realtimeManagementFile(dataDir), 'utf8').trim() : undefined;
