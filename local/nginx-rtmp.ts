// A real RTMP destination for the local stack and tests: Debian's nginx with libnginx-mod-rtmp, one process
// (no master, no daemon) so stopping our child stops it all. HLS is on, so the web app can preview what arrives.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManagedProcess } from './managed-process';
import { assertPortFree, waitForPort } from './ports';

export const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
export const RTMP_APPLICATION = 'live';

export interface NginxRtmp {
  /** Publish URL without the stream key, e.g. rtmp://127.0.0.1:1935/live */
  rtmpUrl: string;
  /** HLS base URL; a stream key `k` plays at `${hlsUrl}/k.m3u8`. */
  hlsUrl: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

function config(dir: string, rtmpPort: number, hlsPort: number): string {
  const temp = join(dir, 'tmp');
  return `load_module ${RTMP_MODULE};
daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
rtmp {
  server {
    listen 127.0.0.1:${rtmpPort};
    chunk_size 4096;
    application ${RTMP_APPLICATION} {
      live on;
      record off;
      hls on;
      hls_path ${join(dir, 'hls')};
      hls_fragment 2s;
      hls_playlist_length 12s;
    }
  }
}
http {
  access_log off;
  client_body_temp_path ${temp}; proxy_temp_path ${temp}; fastcgi_temp_path ${temp}; uwsgi_temp_path ${temp}; scgi_temp_path ${temp};
  server {
    listen 127.0.0.1:${hlsPort};
    # Who publishes and who plays, per stream (the tests count publishers on a key).
    location = /stat {
      rtmp_stat all;
    }
    location /hls/ {
      alias ${join(dir, 'hls')}/;
      add_header Cache-Control no-cache;
      types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; }
    }
  }
}
`;
}

export async function startNginxRtmp(options: { dir: string; rtmpPort: number; hlsPort: number; logFile: string }): Promise<NginxRtmp> {
  if (!existsSync(RTMP_MODULE)) throw new Error(`nginx's RTMP module is missing (${RTMP_MODULE}): apt-get install libnginx-mod-rtmp`);
  await assertPortFree(options.rtmpPort, 'RTMP test destination', 'LOOPCAST_RTMP_PORT');
  await assertPortFree(options.hlsPort, 'HLS preview', 'LOOPCAST_HLS_PORT');
  for (const sub of ['hls', 'tmp']) mkdirSync(join(options.dir, sub), { recursive: true });
  const configFile = join(options.dir, 'nginx.conf');
  writeFileSync(configFile, config(options.dir, options.rtmpPort, options.hlsPort));
  const proc = new ManagedProcess({
    name: 'nginx-rtmp',
    command: 'nginx',
    args: ['-c', configFile, '-p', options.dir, '-e', join(options.dir, 'error.log')],
    logFile: options.logFile,
    stopSignal: 'SIGTERM',
    stopTimeoutMs: 2000,
  });
  try {
    await Promise.all([
      waitForPort(options.rtmpPort, 10_000, () => proc.alive),
      waitForPort(options.hlsPort, 10_000, () => proc.alive),
    ]);
  } catch (error) {
    await proc.stop();
    throw new Error(`nginx-rtmp did not start: ${(error as Error).message}\n${proc.lastOutput()}`);
  }
  return {
    rtmpUrl: `rtmp://127.0.0.1:${options.rtmpPort}/${RTMP_APPLICATION}`,
    hlsUrl: `http://127.0.0.1:${options.hlsPort}/hls`,
    process: proc,
    stop: () => proc.stop(),
  };
}
