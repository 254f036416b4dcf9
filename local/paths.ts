import { join, resolve } from 'node:path';

/** Repository root, from which the local stack finds its tools and builds. */
export const repoRoot = resolve(import.meta.dirname, '..');
export const dynamoDbLocalDir = join(repoRoot, '.tools', 'dynamodb-local');
export const webBuildDir = join(repoRoot, 'web', 'build', 'client');
/** Default data folder of `npm start` (git-ignored); tests use temporary folders. */
export const defaultDataDir = join(repoRoot, '.data');
