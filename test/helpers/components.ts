// The real components the suite needs. A missing one fails the whole run with what to install; nothing is skipped.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RTMP_MODULE, STREAM_MODULE } from '../../local/nginx-rtmp';
import { dynamoDbLocalDir, webBuildDir } from '../../local/paths';

export const CHROMIUM = '/usr/bin/chromium';

const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

export function missingComponents(): string[] {
  const checks: [boolean, string][] = [
    [onPath('java'), 'java (Debian: default-jre-headless) for DynamoDB Local'],
    [existsSync(join(dynamoDbLocalDir, 'DynamoDBLocal.jar')), `DynamoDB Local in ${dynamoDbLocalDir} (npm run setup)`],
    [onPath('ffmpeg') && onPath('ffprobe'), 'ffmpeg and ffprobe (Debian: ffmpeg)'],
    [onPath('nginx'), 'nginx (Debian: nginx)'],
    [existsSync(RTMP_MODULE), 'nginx RTMP module (Debian: libnginx-mod-rtmp)'],
    [existsSync(STREAM_MODULE), 'nginx stream module, TLS in front of the RTMPS test destination (Debian: libnginx-mod-stream)'],
    [onPath('openssl'), 'openssl, the RTMPS test certificates (Debian: openssl)'],
    [existsSync(CHROMIUM), 'Chromium (Debian: chromium)'],
    [existsSync(join(webBuildDir, 'index.html')), `the web build in ${webBuildDir} (npm run build:web)`],
  ];
  return checks.filter(([present]) => !present).map(([, what]) => what);
}
