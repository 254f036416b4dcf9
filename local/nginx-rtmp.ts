// A real RTMP destination for the local stack and tests: Debian's nginx with libnginx-mod-rtmp, one process
// (no master, no daemon) so stopping our child stops it all. HLS is on, so the web app can preview what arrives.
// An RTMPS destination too: nginx's stream module (libnginx-mod-stream) ends TLS in front of the same RTMP server,
// as a platform's RTMPS ingest does, with a certificate from the stack's own test CA (local/test-ca.ts).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManagedProcess } from './managed-process';
import { assertPortFree, freePort, waitForPort } from './ports';
import { createTestCa } from './test-ca';

export const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
export const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';
export const RTMP_APPLICATION = 'live';
/** The only name the RTMPS destination's certificate has: an rtmps:// URL naming it any other way is refused. */
export const RTMPS_HOST = '127.0.0.1';

export interface NginxRtmp {
  /** Publish URL without the stream key, e.g. rtmp://127.0.0.1:1935/live */
  rtmpUrl: string;
  /** The same server behind TLS, e.g. rtmps://127.0.0.1:1936/live */
  rtmpsUrl: string;
  /** The CA that signed the RTMPS certificate (PEM): what a stream task must trust to publish there. */
  caFile: string;
  /** HLS base URL; a stream key `k` plays at `${hlsUrl}/k.m3u8`. */
  hlsUrl: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

function config(
  dir: string,
  rtmpPort: number,
  hlsPort: number,
  tls: { rtmpsPort: number; certFile: string; keyFile: string },
  hls: boolean,
  chunkSize: number,
): string {
  const temp = join(dir, 'tmp');
  const hlsOutput = hls
    ? `hls on;
      hls_path ${join(dir, 'hls')};
      hls_fragment 2s;
      hls_playlist_length 12s;`
    : 'hls off;';
  return `load_module ${RTMP_MODULE};
load_module ${STREAM_MODULE};
daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
rtmp {
  server {
    listen 127.0.0.1:${rtmpPort};
    chunk_size ${chunkSize};
    application ${RTMP_APPLICATION} {
      live on;
      record off;
      ${hlsOutput}
    }
  }
}
stream {
  server {
    listen 127.0.0.1:${tls.rtmpsPort} ssl;
    ssl_certificate ${tls.certFile};
    ssl_certificate_key ${tls.keyFile};
    ssl_protocols TLSv1.2 TLSv1.3;
    proxy_pass 127.0.0.1:${rtmpPort};
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

/** `rtmpsPort`: a free one unless given (tests that need no RTMPS leave it out). `hls: false`: no HLS preview of
 * what arrives, a destination that only ingests, as a platform's does from our side (benchmarks that count what
 * the machine's cores hold: muxing every stream to HLS costs nginx as much CPU as the loop costs ffmpeg).
 * `chunkSize`: the RTMP chunk size the server declares to a publisher, which ffmpeg then sends in (nginx-rtmp's
 * 4096 unless given; 128, RTMP's default, stands for a destination that declares none: bench:wire). */
export async function startNginxRtmp(options: {
  dir: string;
  rtmpPort: number;
  rtmpsPort?: number;
  hlsPort: number;
  logFile: string;
  hls?: boolean;
  chunkSize?: number;
}): Promise<NginxRtmp> {
  if (!existsSync(RTMP_MODULE)) throw new Error(`nginx's RTMP module is missing (${RTMP_MODULE}): apt-get install libnginx-mod-rtmp`);
  if (!existsSync(STREAM_MODULE))
    throw new Error(`nginx's stream module is missing (${STREAM_MODULE}), the RTMPS test destination needs it: apt-get install libnginx-mod-stream`);
  await assertPortFree(options.rtmpPort, 'RTMP test destination', 'LOOPCAST_RTMP_PORT');
  const rtmpsPort = options.rtmpsPort ?? (await freePort());
  await assertPortFree(rtmpsPort, 'RTMPS test destination', 'LOOPCAST_RTMPS_PORT');
  await assertPortFree(options.hlsPort, 'HLS preview', 'LOOPCAST_HLS_PORT');
  for (const sub of ['hls', 'tmp']) mkdirSync(join(options.dir, sub), { recursive: true });
  const ca = await createTestCa(join(options.dir, 'tls'), 'Loopcast local test CA');
  const server = await ca.issue('rtmps', { ip: [RTMPS_HOST] });
  const configFile = join(options.dir, 'nginx.conf');
  writeFileSync(configFile, config(options.dir, options.rtmpPort, options.hlsPort, { rtmpsPort, ...server }, options.hls ?? true, options.chunkSize ?? 4096));
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
      waitForPort(rtmpsPort, 10_000, () => proc.alive),
      waitForPort(options.hlsPort, 10_000, () => proc.alive),
    ]);
  } catch (error) {
    await proc.stop();
    throw new Error(`nginx-rtmp did not start: ${(error as Error).message}\n${proc.lastOutput()}`);
  }
  return {
    rtmpUrl: `rtmp://127.0.0.1:${options.rtmpPort}/${RTMP_APPLICATION}`,
    rtmpsUrl: `rtmps://${RTMPS_HOST}:${rtmpsPort}/${RTMP_APPLICATION}`,
    caFile: ca.certFile,
    hlsUrl: `http://127.0.0.1:${options.hlsPort}/hls`,
    process: proc,
    stop: () => proc.stop(),
  };
}
