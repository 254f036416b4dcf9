// The streaming platforms a destination can be picked from, defined once (data only): where each takes RTMP(S),
// whether it insists on RTMPS, what it allows and what it advises for the video, and its own page about streaming
// software and stream keys. Used by the API (a destination's platform, its RTMPS rule, the check of a stream's video
// against the platform: lambdas/core/channels/platform-fit.ts), the web app (the platform picker) and
// docs/destinations.md, which lists the same table with each figure's source.
//
// `required` limits are the platform's own "must" (or a documented hard ceiling of its ingest): a video beyond them
// cannot stream there, so the API refuses the stream. `recommended` ones are the platform's advice: the stream runs,
// and the creator sees a warning. A limit a platform does not publish is absent, and `unpublished` says so.
// Figures are as the sources read on 2026-08 (docs/destinations.md); bitrates are of the video track, bits/s.

export const destinationPresetIds = [
  'youtube',
  'twitch',
  'facebook',
  'kick',
  'instagram',
  'x',
  'linkedin',
  'tiktok',
  'trovo',
  'rumble',
  'dlive',
  'vimeo',
  'restream',
  'custom',
] as const;

export type DestinationPresetId = (typeof destinationPresetIds)[number];

export const isDestinationPresetId = (value: unknown): value is DestinationPresetId =>
  typeof value === 'string' && (destinationPresetIds as readonly string[]).includes(value);

/** A frame size by its long and short side, so a portrait (9:16) frame compares like a landscape one. */
export interface FrameSize {
  long: number;
  short: number;
}

/** What a platform publishes for one kind of stream. Every field is optional: absent means not published. */
export interface VideoLimits {
  /** The largest frame. */
  maxFrame?: FrameSize;
  maxFrameRate?: number;
  /** Video bitrate ceiling, bits/s, whatever the format. */
  maxVideoBitrate?: number;
  /** The longest time between keyframes, seconds. */
  maxKeyframeIntervalSeconds?: number;
  /** Video bitrate range per format (frames up to `height` lines at up to `frameRate`), bits/s; the first row that
   * holds the video applies. */
  bitrateByFormat?: readonly { height: number; frameRate: number; minVideoBitrate?: number; maxVideoBitrate: number }[];
  /** The platform is made for phones held upright and advises a portrait (9:16) frame. */
  portrait?: boolean;
}

/** Where a platform takes streams: one address for everyone, or one the platform shows each creator. */
export type Ingest =
  | { kind: 'fixed'; url: string }
  /** The platform shows each creator (or each live event) its own server URL; `example` shows its shape. */
  | { kind: 'per-user'; example: string };

export interface DestinationPreset {
  id: DestinationPresetId;
  /** The platform's own name (not translated). */
  name: string;
  ingest: Ingest;
  /** Host names, with their subdomains, whose server URLs belong to this platform (recognising a typed URL). */
  hosts: readonly string[];
  /** The platform takes RTMPS only: an rtmp:// address is refused when the destination is saved. */
  rtmpsRequired: boolean;
  required: VideoLimits;
  recommended: VideoLimits;
  /** What the platform does not publish (docs/destinations.md says the same). */
  unpublished?: readonly ('frame' | 'frameRate' | 'bitrate' | 'keyframeInterval')[];
  /** The platform's own page about streaming software, stream keys and their settings (none for Custom). */
  helpUrl?: string;
  /** Where the creator finds the stream key (and the server URL, for per-user ingest), when it is its own page. */
  keyUrl?: string;
  /** Where our figures come from (docs/destinations.md quotes them). */
  sources: readonly string[];
}

const Mbps = 1_000_000;
const frame = (long: number, short: number): FrameSize => ({ long, short });

export const destinationPresets: readonly DestinationPreset[] = [
  {
    id: 'youtube',
    name: 'YouTube',
    // RTMPS carries the stream key encrypted; YouTube takes both (OBS's service list names this the primary server).
    ingest: { kind: 'fixed', url: 'rtmps://a.rtmps.youtube.com:443/live2' },
    hosts: ['rtmp.youtube.com', 'rtmps.youtube.com'],
    rtmpsRequired: false,
    required: { maxFrame: frame(3840, 2160), maxFrameRate: 60, maxKeyframeIntervalSeconds: 4 },
    recommended: {
      maxKeyframeIntervalSeconds: 2,
      bitrateByFormat: [
        { height: 720, frameRate: 30, minVideoBitrate: 3 * Mbps, maxVideoBitrate: 8 * Mbps },
        { height: 720, frameRate: 60, minVideoBitrate: 3 * Mbps, maxVideoBitrate: 8 * Mbps },
        { height: 1080, frameRate: 30, minVideoBitrate: 3 * Mbps, maxVideoBitrate: 8 * Mbps },
        { height: 1080, frameRate: 60, minVideoBitrate: 4 * Mbps, maxVideoBitrate: 10 * Mbps },
        { height: 1440, frameRate: 30, minVideoBitrate: 5 * Mbps, maxVideoBitrate: 25 * Mbps },
        { height: 1440, frameRate: 60, minVideoBitrate: 6 * Mbps, maxVideoBitrate: 30 * Mbps },
        { height: 2160, frameRate: 30, minVideoBitrate: 8 * Mbps, maxVideoBitrate: 35 * Mbps },
        { height: 2160, frameRate: 60, minVideoBitrate: 10 * Mbps, maxVideoBitrate: 40 * Mbps },
      ],
    },
    helpUrl: 'https://support.google.com/youtube/answer/2853702',
    keyUrl: 'https://www.youtube.com/live_dashboard',
    sources: ['https://support.google.com/youtube/answer/2853702', 'obs-studio plugins/rtmp-services/data/services.json'],
  },
  {
    id: 'twitch',
    name: 'Twitch',
    ingest: { kind: 'fixed', url: 'rtmp://live.twitch.tv/app' },
    hosts: ['twitch.tv'],
    rtmpsRequired: false,
    required: { maxFrameRate: 60, maxKeyframeIntervalSeconds: 2 },
    recommended: { maxFrame: frame(1920, 1080), maxVideoBitrate: 6 * Mbps },
    helpUrl: 'https://help.twitch.tv/s/article/broadcasting-guidelines',
    keyUrl: 'https://dashboard.twitch.tv/settings/stream',
    sources: ['https://help.twitch.tv/customer/portal/articles/1253460-broadcast-requirements', 'obs-studio plugins/rtmp-services/data/services.json'],
  },
  {
    id: 'facebook',
    name: 'Facebook',
    ingest: { kind: 'fixed', url: 'rtmps://live-api-s.facebook.com:443/rtmp' },
    hosts: ['facebook.com'],
    rtmpsRequired: true,
    required: { maxFrame: frame(1920, 1080), maxFrameRate: 60, maxVideoBitrate: 9 * Mbps, maxKeyframeIntervalSeconds: 4 },
    recommended: {
      maxKeyframeIntervalSeconds: 2,
      bitrateByFormat: [
        { height: 360, frameRate: 30, minVideoBitrate: 0.4 * Mbps, maxVideoBitrate: 1 * Mbps },
        { height: 480, frameRate: 30, minVideoBitrate: 0.6 * Mbps, maxVideoBitrate: 2 * Mbps },
        { height: 720, frameRate: 30, minVideoBitrate: 1.5 * Mbps, maxVideoBitrate: 4 * Mbps },
        { height: 720, frameRate: 60, minVideoBitrate: 2.25 * Mbps, maxVideoBitrate: 6 * Mbps },
        { height: 1080, frameRate: 30, minVideoBitrate: 3 * Mbps, maxVideoBitrate: 6 * Mbps },
        { height: 1080, frameRate: 60, minVideoBitrate: 4.5 * Mbps, maxVideoBitrate: 9 * Mbps },
      ],
    },
    helpUrl: 'https://www.facebook.com/help/1534561009906955',
    keyUrl: 'https://www.facebook.com/live/producer',
    sources: ['https://developers.facebook.com/docs/live-video-api/reference', 'obs-studio plugins/rtmp-services/data/services.json'],
  },
  {
    id: 'kick',
    name: 'Kick',
    // Kick's ingest is Amazon IVS; an IVS standard channel disconnects a stream beyond 1080p or 8.5 Mbit/s.
    ingest: { kind: 'fixed', url: 'rtmps://fa723fc1b171.global-contribute.live-video.net/app' },
    hosts: ['fa723fc1b171.global-contribute.live-video.net'],
    rtmpsRequired: true,
    required: { maxFrame: frame(1920, 1080), maxFrameRate: 60, maxVideoBitrate: 8.5 * Mbps },
    recommended: { maxVideoBitrate: 8 * Mbps, maxKeyframeIntervalSeconds: 2 },
    helpUrl: 'https://help.kick.com/en/articles/7066931-how-to-stream-on-kick-com',
    keyUrl: 'https://kick.com/dashboard/settings/stream',
    sources: ['https://docs.aws.amazon.com/ivs/latest/userguide/streaming-config.html', 'AWS IVS API: Channel type STANDARD (up to 1080p, 8.5 Mbps)'],
  },
  {
    id: 'instagram',
    name: 'Instagram Live',
    ingest: { kind: 'per-user', example: 'rtmps://…' },
    hosts: [],
    rtmpsRequired: true,
    required: {},
    recommended: {
      maxFrame: frame(1280, 720),
      maxFrameRate: 30,
      maxVideoBitrate: 6 * Mbps,
      bitrateByFormat: [{ height: 720, frameRate: 30, minVideoBitrate: 2.25 * Mbps, maxVideoBitrate: 6 * Mbps }],
      portrait: true,
    },
    unpublished: ['keyframeInterval'],
    helpUrl: 'https://about.instagram.com/blog/tips-and-tricks/instagram-live-producer',
    sources: ['https://about.instagram.com/blog/tips-and-tricks/instagram-live-producer'],
  },
  {
    id: 'x',
    name: 'X',
    ingest: { kind: 'per-user', example: 'rtmps://va.pscp.tv:443/x' },
    hosts: ['pscp.tv'],
    rtmpsRequired: false,
    required: {},
    recommended: { maxFrameRate: 60, maxVideoBitrate: 12 * Mbps, maxKeyframeIntervalSeconds: 3 },
    unpublished: ['frame'],
    helpUrl: 'https://help.x.com/en/using-x/live-studio',
    keyUrl: 'https://x.com/i/live-studio',
    sources: ['https://help.x.com/en/using-x/live-studio', 'obs-studio plugins/rtmp-services/data/services.json (Twitter)'],
  },
  {
    id: 'linkedin',
    name: 'LinkedIn Live',
    ingest: { kind: 'per-user', example: 'rtmps://…' },
    hosts: [],
    rtmpsRequired: false,
    required: {},
    recommended: { maxFrame: frame(1280, 720), maxFrameRate: 30, maxKeyframeIntervalSeconds: 2 },
    unpublished: ['bitrate'],
    helpUrl: 'https://www.linkedin.com/help/linkedin/answer/128901/go-live-using-a-custom-stream-rtmp-',
    sources: ['https://help.syncwords.com/live/send-captions-to-linkedin-rtmp-608 (third party: LinkedIn supports 1080p, advises 720p30, 2 s keyframes)'],
  },
  {
    id: 'tiktok',
    name: 'TikTok LIVE',
    ingest: { kind: 'per-user', example: 'rtmp://…' },
    hosts: [],
    rtmpsRequired: false,
    required: {},
    recommended: { portrait: true },
    unpublished: ['frame', 'frameRate', 'bitrate', 'keyframeInterval'],
    helpUrl: 'https://support.tiktok.com/en/live-gifts-wallet/tiktok-live',
    sources: ['https://support.tiktok.com/en/live-gifts-wallet/tiktok-live'],
  },
  {
    id: 'trovo',
    name: 'Trovo',
    ingest: { kind: 'fixed', url: 'rtmp://livepush.trovo.live/live' },
    hosts: ['trovo.live'],
    rtmpsRequired: false,
    required: {},
    recommended: { maxVideoBitrate: 9 * Mbps, maxKeyframeIntervalSeconds: 2 },
    unpublished: ['frame', 'frameRate'],
    helpUrl: 'https://studio.trovo.live/mychannel/stream',
    sources: ['obs-studio plugins/rtmp-services/data/services.json (Trovo)'],
  },
  {
    id: 'rumble',
    name: 'Rumble',
    ingest: { kind: 'per-user', example: 'rtmp://….live.rmbl.ws/slot-123' },
    hosts: ['rmbl.ws'],
    rtmpsRequired: false,
    required: {},
    recommended: {
      bitrateByFormat: [
        { height: 720, frameRate: 30, maxVideoBitrate: 4 * Mbps },
        { height: 720, frameRate: 60, maxVideoBitrate: 6 * Mbps },
        { height: 1080, frameRate: 30, maxVideoBitrate: 8 * Mbps },
        { height: 1080, frameRate: 60, maxVideoBitrate: 10 * Mbps },
        { height: 1440, frameRate: 30, maxVideoBitrate: 12 * Mbps },
        { height: 1440, frameRate: 60, maxVideoBitrate: 20 * Mbps },
        { height: 2160, frameRate: 30, maxVideoBitrate: 24 * Mbps },
        { height: 2160, frameRate: 60, maxVideoBitrate: 30 * Mbps },
      ],
    },
    unpublished: ['keyframeInterval'],
    helpUrl: 'https://rumble.support/help/how-to-use-rumble-studios-direct-rtmp-feature',
    keyUrl: 'https://rumble.com/account/live-streaming',
    sources: ['https://rumble.support/help/how-to-use-rumble-studios-direct-rtmp-feature'],
  },
  {
    id: 'dlive',
    name: 'DLive',
    ingest: { kind: 'fixed', url: 'rtmp://stream.dlive.tv/live' },
    hosts: ['dlive.tv'],
    rtmpsRequired: false,
    required: {},
    recommended: { maxVideoBitrate: 6 * Mbps, maxKeyframeIntervalSeconds: 2 },
    unpublished: ['frame', 'frameRate'],
    helpUrl: 'https://dlive.tv/s/dashboard',
    sources: ['obs-studio plugins/rtmp-services/data/services.json (DLive)'],
  },
  {
    id: 'vimeo',
    name: 'Vimeo',
    // Vimeo shows the server URL of each event beside its key; this is the one it shows for RTMPS.
    ingest: { kind: 'fixed', url: 'rtmps://rtmp-global.cloud.vimeo.com:443/live' },
    hosts: ['cloud.vimeo.com'],
    rtmpsRequired: false,
    required: {},
    recommended: { maxFrame: frame(1920, 1080), maxFrameRate: 30, maxVideoBitrate: 5 * Mbps },
    unpublished: ['keyframeInterval'],
    helpUrl: 'https://help.vimeo.com/hc/en-us/articles/35052933757073-About-streaming-protocols-supported-by-Vimeo',
    sources: [
      'https://help.vimeo.com/hc/pt/articles/12426939452817-Recommended-network-configuration-for-streaming',
      'https://help.vimeo.com/hc/en-us/articles/35052933757073-About-streaming-protocols-supported-by-Vimeo',
    ],
  },
  {
    id: 'restream',
    name: 'Restream',
    ingest: { kind: 'fixed', url: 'rtmp://live.restream.io/live' },
    hosts: ['restream.io'],
    rtmpsRequired: false,
    required: {},
    recommended: { maxKeyframeIntervalSeconds: 2 },
    unpublished: ['frame', 'frameRate', 'bitrate'],
    helpUrl: 'https://support.restream.io/en/articles/1668135-wrong-keyframe-warning',
    keyUrl: 'https://restream.io/settings/streaming-setup',
    sources: ['https://support.restream.io/en/articles/1668135-wrong-keyframe-warning', 'obs-studio plugins/rtmp-services/data/services.json (Restream.io)'],
  },
  {
    id: 'custom',
    name: 'Custom',
    ingest: { kind: 'per-user', example: 'rtmp://' },
    hosts: [],
    rtmpsRequired: false,
    required: {},
    recommended: {},
    sources: [],
  },
];

export const presetById = (id: DestinationPresetId): DestinationPreset => destinationPresets.find((preset) => preset.id === id)!;
