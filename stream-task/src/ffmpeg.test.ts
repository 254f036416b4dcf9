import { cleanStderrLine, ffmpegArgs, redactSecrets, teeQueueFull, teeSlaveFailure } from './ffmpeg';

const yt = { id: 'yt', url: 'rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop' };
const twitch = { id: 'tw', url: "rtmp://live.twitch.tv/app/live_123|weird'key" };

describe('ffmpeg command', () => {
  test('one destination: looped input at native rate, stream copy, straight FLV', () => {
    expect(ffmpegArgs({ videoPath: '/w/video/stream.mp4' }, [yt]).join(' ')).toBe(
      '-hide_banner -nostdin -loglevel warning -nostats -progress pipe:1 -re -stream_loop -1 -i /w/video/stream.mp4 ' +
        '-map 0:v:0 -map 0:a:0? -c copy -rw_timeout 5000000 -flvflags no_duration_filesize -f flv rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop',
    );
  });

  test("a separate audio track is a second looped input and replaces the video's own audio", () => {
    const args = ffmpegArgs({ videoPath: 'v.mp4', audioPath: 'a.m4a' }, [yt]);
    expect(args.join(' ')).toContain('-re -stream_loop -1 -i v.mp4 -re -stream_loop -1 -i a.m4a -map 0:v:0 -map 1:a:0 -c copy');
  });

  test('several destinations: tee with onfail=ignore and a queue each, FLV codec tags, URLs escaped for the tee syntax', () => {
    const args = ffmpegArgs({ videoPath: 'v.mp4' }, [yt, twitch]);
    expect(args.slice(-7, -1)).toEqual(['-tag:v', '7', '-tag:a', '10', '-f', 'tee']);
    // The fifo's own option list needs its ':' escaped for the slave's list, and that escape once more for the tee.
    const slave = '[f=flv:onfail=ignore:flvflags=no_duration_filesize:use_fifo=1:fifo_options=drop_pkts_on_overflow=1\\\\:queue_size=360]';
    expect(args.at(-1)).toBe(`${slave}rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop|${slave}rtmp://live.twitch.tv/app/live_123\\|weird\\'key`);
  });

  test('a playlist: one FLV fed on stdin at native rate, copied like a single video', () => {
    expect(ffmpegArgs({ feed: 'stdin' }, [yt]).join(' ')).toBe(
      '-hide_banner -nostdin -loglevel warning -nostats -progress pipe:1 -re -f flv -i pipe:0 ' +
        '-map 0:v:0 -map 0:a:0? -c copy -rw_timeout 5000000 -flvflags no_duration_filesize -f flv rtmp://a.rtmp.youtube.com/live2/abcd-efgh-ijkl-mnop',
    );
  });

  test('one RTMPS destination: the TLS layer verifies the certificate and its name, against the given CA or the system store', () => {
    const facebook = { id: 'fb', url: 'rtmps://live-api-s.facebook.com:443/rtmp/FB-1' };
    expect(ffmpegArgs({ videoPath: 'v.mp4' }, [facebook], { caFile: '/tmp/ca.crt' }).slice(-9)).toEqual([
      '-tls_verify',
      '1',
      '-ca_file',
      '/tmp/ca.crt',
      '-flvflags',
      'no_duration_filesize',
      '-f',
      'flv',
      facebook.url,
    ]);
    expect(ffmpegArgs({ videoPath: 'v.mp4' }, [facebook]).join(' ')).toContain(
      '-rw_timeout 5000000 -tls_verify 1 -flvflags no_duration_filesize -f flv rtmps://',
    );
    // rtmp:// takes no TLS option (one no protocol takes would fail the output).
    expect(ffmpegArgs({ videoPath: 'v.mp4' }, [yt], { caFile: '/tmp/ca.crt' })).not.toContain('-tls_verify');
  });

  test('RTMPS destinations of a tee: the verification is a slave option, which the tee hands to the output the fifo opens', () => {
    const kick = { id: 'kick', url: "rtmps://fa723fc1b171.global-contribute.live-video.net/app/sk_us|'key" };
    const caFile = "/data/t|l's/ca:1=2].crt";
    const args = ffmpegArgs({ videoPath: 'v.mp4' }, [yt, kick], { caFile });
    expect(args).not.toContain('-tls_verify'); // the tee would ignore it
    const [plain, secure] = teeSlaves(args.at(-1)!);
    const common = {
      f: 'flv',
      onfail: 'ignore',
      flvflags: 'no_duration_filesize',
      use_fifo: '1',
      fifo_options: 'drop_pkts_on_overflow=1:queue_size=360',
    };
    expect(plain).toEqual({ url: yt.url, options: common });
    expect(secure).toEqual({ url: kick.url, options: { ...common, tls_verify: '1', ca_file: caFile } });
    expect(dictionary(secure!.options.fifo_options!)).toEqual({ drop_pkts_on_overflow: '1', queue_size: '360' });
  });

  test('never re-encodes', () => {
    const args = ffmpegArgs({ videoPath: 'v.mp4', audioPath: 'a.m4a' }, [yt, twitch]);
    expect(args[args.indexOf('-c') + 1]).toBe('copy');
    expect(args.some((a) => /^-(c|codec):[av]$|^-[av]codec$|^-vf$|^-af$|^-filter/.test(a))).toBe(false);
  });

  test('needs a destination', () => {
    expect(() => ffmpegArgs({ videoPath: 'v.mp4' }, [])).toThrow('at least one destination');
  });
});

/** ffmpeg's av_get_token: up to an unescaped delimiter; a backslash takes the next character as it is. */
function token(text: string, delimiters: string): [string, string] {
  let out = '';
  let i = 0;
  for (; i < text.length && !delimiters.includes(text[i]!); i++) out += text[i] === '\\' ? (text[++i] ?? '') : text[i];
  return [out, text.slice(i)];
}

/** av_dict_parse_string(text, "=", ":"), as the tee, the fifo and its format_opts read their options. */
function dictionary(text: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (let rest = text; rest;) {
    const [key, afterKey] = token(rest, '=');
    const [value, afterValue] = token(afterKey.slice(1), ':');
    entries[key] = value;
    rest = afterValue.slice(1);
  }
  return entries;
}

/** The tee's slaves as it reads them: split at unescaped '|'; each one's `[key=value:...]` (a value ends at an
 * unescaped ':' or ']'), then its URL. */
function teeSlaves(text: string): { options: Record<string, string>; url: string }[] {
  const slaves = [];
  for (let rest = text; rest;) {
    const [slave, after] = token(rest, '|');
    const options: Record<string, string> = {};
    let inside = slave.slice(1);
    for (;;) {
      const [key, afterKey] = token(inside, '=');
      const [value, afterValue] = token(afterKey.slice(1), ':]');
      options[key] = value;
      inside = afterValue.slice(1);
      if (afterValue.startsWith(']')) break;
    }
    slaves.push({ options, url: inside });
    rest = after.slice(1);
  }
  return slaves;
}

describe('ffmpeg stderr', () => {
  test('a dropped tee destination is recognised with its index and reason', () => {
    expect(teeSlaveFailure('[tee @ 0x55689f7c6340] Slave muxer #1 failed: Connection refused, continuing with 1/2 slaves.')).toEqual({
      index: 1,
      reason: 'Connection refused',
    });
    expect(teeSlaveFailure('[tee @ 0x55689f7c6340] All tee outputs failed.')).toBeUndefined();
  });

  test("a destination's full queue is recognised, with or without the muxer prefix", () => {
    expect(teeQueueFull('[fifo @ 0x5607a6686940] FIFO queue full')).toBe(true);
    expect(teeQueueFull('FIFO queue full')).toBe(true);
    expect(teeQueueFull('FIFO queue flushed')).toBe(false);
    expect(teeQueueFull('[tee @ 0x55689f7c6340] Slave muxer #1 failed: Connection refused, continuing with 1/2 slaves.')).toBe(false);
  });

  test('stream keys never leave the task', () => {
    expect(redactSecrets(`Slave '[f=flv:onfail=ignore]${yt.url}': error opening: Connection refused`)).toBe(
      "Slave '[f=flv:onfail=ignore]rtmp://a.rtmp.youtube.com/live2/***': error opening: Connection refused",
    );
    expect(redactSecrets('rtmps://live-api-s.facebook.com:443/rtmp/FB-1234-0-Ab?s_bl=1&s_sw=0 failed')).toBe(
      'rtmps://live-api-s.facebook.com:443/rtmp/*** failed',
    );
    expect(redactSecrets('rtmp://host/app?key=secret and rtmp://host/app')).toBe('rtmp://host/app?*** and rtmp://host/app');
    expect(redactSecrets('Error writing to rtmp://127.0.0.1:1935/live/key-1: Broken pipe.')).toBe(
      'Error writing to rtmp://127.0.0.1:1935/live/***: Broken pipe.',
    );
    expect(redactSecrets('Connection to tcp://127.0.0.1:1?tcp_nodelay=0 failed')).toBe('Connection to tcp://127.0.0.1:1?tcp_nodelay=0 failed');
  });

  test('lines lose the muxer prefix', () => {
    expect(cleanStderrLine('[flv @ 0x563960aa27c0] Failed to update header with correct duration.')).toBe('Failed to update header with correct duration.');
    expect(cleanStderrLine('   ')).toBe('');
  });
});
