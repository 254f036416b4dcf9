// The YouTube Data API v3 methods Loopcast uses: channels.list, liveStreams.*, liveBroadcasts.* and thumbnails.set,
// with YouTube's broadcast life cycle (created → ready → testStarting → testing → liveStarting → live → complete),
// auto start and auto stop driven by the bound stream, and the part-based resource projection.
import { createHash } from 'node:crypto';
import type { youtube_v3 } from 'googleapis';
import type { Account, Accounts, Channel } from './accounts';
import { youtubeErrors } from './errors';
import type { YouTubeMethod } from './quota';
import { BASE64URL, randomString } from '../shared/random';

type Broadcast = youtube_v3.Schema$LiveBroadcast;
type Stream = youtube_v3.Schema$LiveStream;
type Thumbnails = youtube_v3.Schema$ThumbnailDetails;

export type LifeCycleStatus = 'created' | 'ready' | 'testStarting' | 'testing' | 'liveStarting' | 'live' | 'complete';
export type StreamStatus = 'created' | 'ready' | 'active' | 'inactive' | 'error';

export interface YouTubeRequest {
  query: URLSearchParams;
  body: Buffer;
  contentType: string | null;
  account: Account;
}

export interface YouTubeReply {
  status: number;
  body?: object;
}

export interface Ingestion {
  rtmp: string;
  rtmpBackup: string;
}

interface StoredBroadcast {
  resource: Broadcast;
  channelId: string;
  /** A transition in progress: YouTube reports `…Starting` first and the final status a moment later. */
  pending?: { status: 'testing' | 'live'; at: number };
}

const THUMBNAIL_LIMIT_BYTES = 2 * 1024 * 1024;
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'application/octet-stream'];
const PRIVACY = ['public', 'unlisted', 'private'];

export class YouTube {
  readonly broadcasts = new Map<string, StoredBroadcast>();
  readonly streams = new Map<string, { resource: Stream; channelId: string }>();
  readonly thumbnails = new Map<string, { contentType: string; bytes: Buffer }>();

  constructor(
    private readonly accounts: Accounts,
    private readonly now: () => number,
    private readonly ingestion: Ingestion,
    private readonly transitionDelayMs: number,
  ) {}

  /** The API method a request addresses, or undefined for an unknown path. */
  static method(httpMethod: string, path: string): YouTubeMethod | undefined {
    const routes: Record<string, YouTubeMethod> = {
      'GET /youtube/v3/channels': 'channels.list',
      'GET /youtube/v3/liveStreams': 'liveStreams.list',
      'POST /youtube/v3/liveStreams': 'liveStreams.insert',
      'DELETE /youtube/v3/liveStreams': 'liveStreams.delete',
      'GET /youtube/v3/liveBroadcasts': 'liveBroadcasts.list',
      'POST /youtube/v3/liveBroadcasts': 'liveBroadcasts.insert',
      'PUT /youtube/v3/liveBroadcasts': 'liveBroadcasts.update',
      'DELETE /youtube/v3/liveBroadcasts': 'liveBroadcasts.delete',
      'POST /youtube/v3/liveBroadcasts/bind': 'liveBroadcasts.bind',
      'POST /youtube/v3/liveBroadcasts/transition': 'liveBroadcasts.transition',
      'POST /youtube/v3/thumbnails/set': 'thumbnails.set',
      'POST /upload/youtube/v3/thumbnails/set': 'thumbnails.set',
    };
    return routes[`${httpMethod} ${path}`];
  }

  handle(method: YouTubeMethod, request: YouTubeRequest): YouTubeReply {
    switch (method) {
      case 'channels.list':
        return this.listChannels(request);
      case 'liveStreams.list':
        return this.listStreams(request);
      case 'liveStreams.insert':
        return this.insertStream(request);
      case 'liveStreams.delete':
        return this.deleteStream(request);
      case 'liveBroadcasts.list':
        return this.listBroadcasts(request);
      case 'liveBroadcasts.insert':
        return this.insertBroadcast(request);
      case 'liveBroadcasts.update':
        return this.updateBroadcast(request);
      case 'liveBroadcasts.delete':
        return this.deleteBroadcast(request);
      case 'liveBroadcasts.bind':
        return this.bind(request);
      case 'liveBroadcasts.transition':
        return this.transition(request);
      case 'thumbnails.set':
        return this.setThumbnail(request);
    }
  }

  /** Media reaches (or stops reaching) the ingestion point: auto start and auto stop react like YouTube's. */
  setStreamStatus(streamId: string, status: StreamStatus): void {
    const stream = this.streams.get(streamId);
    if (!stream) throw new Error(`no live stream ${streamId}`);
    stream.resource.status = { streamStatus: status, healthStatus: { status: status === 'active' ? 'good' : 'noData' } };
    for (const stored of this.boundTo(streamId)) {
      const details = stored.resource.contentDetails ?? {};
      const lifeCycle = this.lifeCycle(stored);
      if (status === 'active' && lifeCycle === 'ready' && details.enableAutoStart) this.begin(stored, 'live');
      if (status !== 'active' && (lifeCycle === 'live' || lifeCycle === 'testing') && details.enableAutoStop) this.complete(stored);
    }
  }

  /** YouTube ends the broadcast on its own (over 12 hours, a policy strike, the creator in Studio). */
  endBroadcast(broadcastId: string): void {
    const stored = this.broadcasts.get(broadcastId);
    if (!stored) throw new Error(`no live broadcast ${broadcastId}`);
    this.complete(stored);
  }

  broadcast(broadcastId: string): Broadcast | undefined {
    const stored = this.broadcasts.get(broadcastId);
    if (stored) this.settle(stored);
    return stored && structuredClone(stored.resource);
  }

  // --- channels ---------------------------------------------------------------------------------------------

  private listChannels({ query, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, ['id', 'snippet', 'status', 'contentDetails', 'statistics', 'brandingSettings', 'topicDetails', 'localizations']);
    const ids = listParam(query, 'id');
    const mine = query.get('mine') === 'true';
    if (!mine && ids === undefined) throw youtubeErrors.noFilter(['mine', 'id']);
    if (mine && ids !== undefined) throw youtubeErrors.incompatibleFilters(['mine', 'id']);
    const channels = mine ? [account.channel] : (ids ?? []).map((id) => this.accounts.find(id)?.channel);
    const items = channels.filter((channel) => channel != null).map((channel) => project('youtube#channel', channel.id, channelParts(channel), parts));
    // With no channel the real answer leaves `items` out altogether.
    return { status: 200, body: { ...page('youtube#channelListResponse', items, query), ...(items.length === 0 ? { items: undefined } : {}) } };
  }

  // --- live streams -----------------------------------------------------------------------------------------

  private listStreams({ query, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, ['id', 'snippet', 'cdn', 'contentDetails', 'status']);
    const channelId = liveChannel(account).id;
    const selected = this.selectByFilter(
      query,
      ['id', 'mine'],
      [...this.streams.values()].filter((each) => each.channelId === channelId),
    );
    const items = selected.map((each) => projectResource('youtube#liveStream', each.resource, parts));
    return { status: 200, body: page('youtube#liveStreamListResponse', items, query) };
  }

  private insertStream({ query, body, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, ['id', 'snippet', 'cdn', 'contentDetails', 'status']);
    const channel = liveChannel(account);
    const input = jsonBody<Stream>(body);
    const title = parts.includes('snippet') ? input.snippet?.title : undefined;
    if (!title) throw youtubeErrors.streamRequired('titleRequired', 'snippet.title');
    const cdn = parts.includes('cdn') ? input.cdn : undefined;
    if (!cdn) throw youtubeErrors.streamRequired('cdnRequired', 'cdn');
    if (!cdn.ingestionType) throw youtubeErrors.streamRequired('ingestionTypeRequired', 'cdn.ingestionType');
    if (!['rtmp', 'dash', 'webrtc', 'hls'].includes(cdn.ingestionType)) {
      throw youtubeErrors.streamInvalid('invalidIngestionType', 'The ingestion type is not valid.');
    }
    if (!cdn.resolution) throw youtubeErrors.streamRequired('resolutionRequired', 'cdn.resolution');
    if (!['240p', '360p', '480p', '720p', '1080p', '1440p', '2160p', 'variable'].includes(cdn.resolution)) {
      throw youtubeErrors.streamInvalid('invalidResolution', 'The resolution is not valid.');
    }
    if (!cdn.frameRate) throw youtubeErrors.streamRequired('frameRateRequired', 'cdn.frameRate');
    if (!['30fps', '60fps', 'variable'].includes(cdn.frameRate)) throw youtubeErrors.streamInvalid('invalidFrameRate', 'The frame rate is not valid.');

    const id = `${channel.id.slice(2)}${randomString(14, '0123456789')}`;
    const streamName = Array.from({ length: 5 }, () => randomString(4, 'abcdefghijklmnopqrstuvwxyz0123456789')).join('-');
    const resource: Stream = {
      kind: 'youtube#liveStream',
      id,
      snippet: {
        publishedAt: new Date(this.now()).toISOString(),
        channelId: channel.id,
        title,
        description: input.snippet?.description ?? '',
        isDefaultStream: false,
      },
      cdn: {
        ingestionType: cdn.ingestionType,
        ingestionInfo: {
          streamName,
          ingestionAddress: this.ingestion.rtmp,
          backupIngestionAddress: this.ingestion.rtmpBackup,
          rtmpsIngestionAddress: 'rtmps://a.rtmps.youtube.com/live2',
          rtmpsBackupIngestionAddress: 'rtmps://b.rtmps.youtube.com/live2?backup=1',
        },
        resolution: cdn.resolution,
        frameRate: cdn.frameRate,
      },
      status: { streamStatus: 'ready', healthStatus: { status: 'noData' } },
      contentDetails: {
        closedCaptionsIngestionUrl: `http://upload.youtube.com/closedcaption?cid=${streamName}`,
        isReusable: parts.includes('contentDetails') ? (input.contentDetails?.isReusable ?? true) : true,
      },
    };
    this.streams.set(id, { resource, channelId: channel.id });
    return { status: 200, body: projectResource('youtube#liveStream', resource, parts) };
  }

  private deleteStream({ query, account }: YouTubeRequest): YouTubeReply {
    const id = requiredParam(query, 'id');
    const stream = this.streams.get(id);
    if (!stream || stream.channelId !== liveChannel(account).id) throw youtubeErrors.streamNotFound('id');
    this.streams.delete(id);
    return { status: 204 };
  }

  // --- live broadcasts --------------------------------------------------------------------------------------

  private listBroadcasts({ query, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, BROADCAST_PARTS);
    const channelId = liveChannel(account).id;
    const own = [...this.broadcasts.values()].filter((each) => each.channelId === channelId);
    for (const each of own) this.settle(each);
    const byStatus: Record<string, LifeCycleStatus[]> = {
      active: ['testStarting', 'testing', 'liveStarting', 'live'],
      upcoming: ['created', 'ready'],
      completed: ['complete'],
    };
    const status = query.get('broadcastStatus');
    if (status !== null && status !== 'all' && !byStatus[status]) {
      throw youtubeErrors.invalidValue('broadcastStatus', `Invalid value for broadcastStatus: ${status}`);
    }
    const candidates = status === null || status === 'all' ? own : own.filter((each) => byStatus[status]?.includes(this.lifeCycle(each)));
    const selected = this.selectByFilter(query, ['id', 'mine', 'broadcastStatus'], candidates);
    const items = selected.map((each) => projectResource('youtube#liveBroadcast', each.resource, parts));
    return { status: 200, body: page('youtube#liveBroadcastListResponse', items, query) };
  }

  private insertBroadcast({ query, body, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, BROADCAST_PARTS);
    const channel = liveChannel(account);
    const input = jsonBody<Broadcast>(body);
    const id = randomString(11, BASE64URL);
    const resource: Broadcast = {
      kind: 'youtube#liveBroadcast',
      id,
      snippet: {
        publishedAt: new Date(this.now()).toISOString(),
        channelId: channel.id,
        ...validSnippet(parts.includes('snippet') ? input.snippet : undefined),
        thumbnails: liveThumbnails(id),
        isDefaultBroadcast: false,
        liveChatId: `KicKGFVD${randomString(30, BASE64URL)}`,
      },
      status: {
        lifeCycleStatus: 'created',
        ...validStatus(parts.includes('status') ? input.status : undefined),
        recordingStatus: 'notRecording',
        madeForKids: false,
      },
      contentDetails: contentDetails(id, parts.includes('contentDetails') ? input.contentDetails : undefined),
    };
    this.broadcasts.set(id, { resource, channelId: channel.id });
    return { status: 200, body: projectResource('youtube#liveBroadcast', resource, parts) };
  }

  /** Each part named in `part` is replaced as a whole: a settable property left out returns to its default. */
  private updateBroadcast({ query, body, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, BROADCAST_PARTS);
    const input = jsonBody<Broadcast>(body);
    if (!input.id) throw youtubeErrors.broadcastRequired('idRequired', 'id');
    const stored = this.ownBroadcast(input.id, account);
    const resource = stored.resource;
    if (parts.includes('snippet')) resource.snippet = { ...resource.snippet, scheduledEndTime: undefined, ...validSnippet(input.snippet) };
    if (parts.includes('status')) resource.status = { ...resource.status, ...validStatus(input.status) };
    if (parts.includes('contentDetails')) {
      const { boundStreamId, boundStreamLastUpdateTimeMs } = resource.contentDetails ?? {};
      resource.contentDetails = { ...contentDetails(input.id, input.contentDetails), boundStreamId, boundStreamLastUpdateTimeMs };
    }
    return { status: 200, body: projectResource('youtube#liveBroadcast', resource, parts) };
  }

  private deleteBroadcast({ query, account }: YouTubeRequest): YouTubeReply {
    const id = requiredParam(query, 'id');
    this.ownBroadcast(id, account);
    this.broadcasts.delete(id);
    this.thumbnails.delete(id);
    return { status: 204 };
  }

  private bind({ query, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, BROADCAST_PARTS);
    const stored = this.ownBroadcast(requiredParam(query, 'id'), account);
    const lifeCycle = this.lifeCycle(stored);
    if (lifeCycle !== 'created' && lifeCycle !== 'ready') throw youtubeErrors.bindingNotAllowed();
    const streamId = query.get('streamId');
    const details = stored.resource.contentDetails ?? {};
    if (streamId === null) {
      // Without streamId the broadcast is unbound.
      stored.resource.contentDetails = { ...details, boundStreamId: undefined, boundStreamLastUpdateTimeMs: undefined };
      setLifeCycle(stored, 'created');
    } else {
      const stream = this.streams.get(streamId);
      if (!stream || stream.channelId !== stored.channelId) throw youtubeErrors.streamNotFound('streamId');
      stored.resource.contentDetails = { ...details, boundStreamId: streamId, boundStreamLastUpdateTimeMs: new Date(this.now()).toISOString() };
      setLifeCycle(stored, 'ready');
      // A broadcast bound to a stream that is already receiving media starts at once when auto start is on.
      if (details.enableAutoStart && stream.resource.status?.streamStatus === 'active') this.begin(stored, 'live');
    }
    return { status: 200, body: projectResource('youtube#liveBroadcast', stored.resource, parts) };
  }

  private transition({ query, account }: YouTubeRequest): YouTubeReply {
    const parts = requestedParts(query, BROADCAST_PARTS);
    const target = requiredParam(query, 'broadcastStatus');
    if (target !== 'testing' && target !== 'live' && target !== 'complete') {
      throw youtubeErrors.invalidValue('broadcastStatus', `Invalid value for broadcastStatus: ${target}`);
    }
    const stored = this.ownBroadcast(requiredParam(query, 'id'), account);
    const current = this.lifeCycle(stored);
    const arriving: Record<string, LifeCycleStatus[]> = { testing: ['testStarting', 'testing'], live: ['liveStarting', 'live'], complete: ['complete'] };
    if (arriving[target]?.includes(current)) throw youtubeErrors.redundantTransition();
    const from: Record<string, LifeCycleStatus[]> = { testing: ['ready'], live: ['ready', 'testing'], complete: ['testing', 'liveStarting', 'live'] };
    if (!from[target]?.includes(current)) throw youtubeErrors.invalidTransition();
    if (target === 'complete') {
      this.complete(stored);
    } else {
      const details = stored.resource.contentDetails ?? {};
      if (target === 'testing' && details.monitorStream?.enableMonitorStream === false) throw youtubeErrors.invalidTransition();
      const stream = details.boundStreamId ? this.streams.get(details.boundStreamId) : undefined;
      if (stream?.resource.status?.streamStatus !== 'active') throw youtubeErrors.streamInactive();
      this.begin(stored, target);
    }
    return { status: 200, body: projectResource('youtube#liveBroadcast', stored.resource, parts) };
  }

  // --- thumbnails -------------------------------------------------------------------------------------------

  private setThumbnail({ query, body, contentType, account }: YouTubeRequest): YouTubeReply {
    const videoId = requiredParam(query, 'videoId');
    const stored = this.broadcasts.get(videoId);
    if (!stored) throw youtubeErrors.videoNotFound();
    if (stored.channelId !== account.channel?.id) throw youtubeErrors.thumbnailForbidden();
    const uploadType = query.get('uploadType');
    if (uploadType !== null && uploadType !== 'media') {
      throw youtubeErrors.invalidValue('uploadType', `[fake YouTube] uploadType=${uploadType} is not modelled; use media.`);
    }
    if (body.length === 0) throw youtubeErrors.mediaBodyRequired();
    const type = (contentType ?? 'application/octet-stream').split(';')[0]?.trim() ?? '';
    if (!THUMBNAIL_TYPES.includes(type)) throw youtubeErrors.unsupportedMediaType(type, THUMBNAIL_TYPES);
    // Over 2 MB YouTube answers invalidImage, not a size-specific error.
    if (body.length > THUMBNAIL_LIMIT_BYTES || !isJpegOrPng(body)) throw youtubeErrors.invalidImage();
    this.thumbnails.set(videoId, { contentType: type, bytes: body });
    const thumbnails = customThumbnails(videoId);
    if (stored.resource.snippet) stored.resource.snippet.thumbnails = thumbnails;
    const response = { kind: 'youtube#thumbnailSetResponse', items: [thumbnails] };
    return { status: 200, body: { ...response, etag: etag(response) } };
  }

  // --- life cycle -------------------------------------------------------------------------------------------

  private lifeCycle(stored: StoredBroadcast): LifeCycleStatus {
    this.settle(stored);
    return (stored.resource.status?.lifeCycleStatus ?? 'created') as LifeCycleStatus;
  }

  private begin(stored: StoredBroadcast, target: 'testing' | 'live'): void {
    setLifeCycle(stored, target === 'testing' ? 'testStarting' : 'liveStarting');
    stored.pending = { status: target, at: this.now() + this.transitionDelayMs };
  }

  private settle(stored: StoredBroadcast): void {
    if (!stored.pending || stored.pending.at > this.now()) return;
    const { status } = stored.pending;
    delete stored.pending;
    setLifeCycle(stored, status);
    if (status === 'live' && stored.resource.snippet) {
      stored.resource.snippet.actualStartTime = new Date(this.now()).toISOString();
      if (stored.resource.status && stored.resource.contentDetails?.enableDvr !== false) stored.resource.status.recordingStatus = 'recording';
    }
  }

  private complete(stored: StoredBroadcast): void {
    this.settle(stored);
    delete stored.pending;
    setLifeCycle(stored, 'complete');
    if (stored.resource.snippet) stored.resource.snippet.actualEndTime = new Date(this.now()).toISOString();
    if (stored.resource.status?.recordingStatus === 'recording') stored.resource.status.recordingStatus = 'recorded';
  }

  private boundTo(streamId: string): StoredBroadcast[] {
    return [...this.broadcasts.values()].filter((each) => each.resource.contentDetails?.boundStreamId === streamId);
  }

  /** Someone else's broadcast is indistinguishable from a missing one. */
  private ownBroadcast(id: string, account: Account): StoredBroadcast {
    const stored = this.broadcasts.get(id);
    if (!stored || stored.channelId !== liveChannel(account).id) throw youtubeErrors.broadcastNotFound();
    this.settle(stored);
    return stored;
  }

  /** liveBroadcasts.list and liveStreams.list take exactly one filter. */
  private selectByFilter<T extends { resource: { id?: string | null } }>(query: URLSearchParams, filters: string[], candidates: T[]): T[] {
    const given = filters.filter((name) => (name === 'mine' ? query.get('mine') === 'true' : query.has(name)));
    if (given.length === 0) throw youtubeErrors.noFilter(filters);
    if (given.length > 1) throw youtubeErrors.incompatibleFilters(given);
    const ids = listParam(query, 'id');
    return ids === undefined ? candidates : candidates.filter((each) => ids.includes(each.resource.id ?? ''));
  }
}

const BROADCAST_PARTS = ['id', 'snippet', 'contentDetails', 'status', 'statistics', 'monetizationDetails'];

function liveChannel(account: Account): Channel {
  if (!account.channel?.liveStreamingEnabled) throw youtubeErrors.liveStreamingNotEnabled();
  return account.channel;
}

function setLifeCycle(stored: StoredBroadcast, status: LifeCycleStatus): void {
  stored.resource.status = { ...stored.resource.status, lifeCycleStatus: status };
}

function requiredParam(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (!value) throw youtubeErrors.requiredParameter(name);
  return value;
}

/** `part=a,b` or `part=a&part=b` (googleapis repeats the parameter). */
function requestedParts(query: URLSearchParams, allowed: string[]): string[] {
  const parts = listParam(query, 'part');
  if (!parts || parts.length === 0) throw youtubeErrors.requiredParameter('part');
  for (const part of parts) if (!allowed.includes(part)) throw youtubeErrors.unknownPart(part);
  return parts;
}

function listParam(query: URLSearchParams, name: string): string[] | undefined {
  if (!query.has(name)) return undefined;
  return query
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

function jsonBody<T>(body: Buffer): T {
  try {
    return (body.length === 0 ? {} : JSON.parse(body.toString('utf8'))) as T;
  } catch {
    throw youtubeErrors.invalidValue('body', 'Invalid JSON payload received.');
  }
}

function validSnippet(input: youtube_v3.Schema$LiveBroadcastSnippet | undefined): youtube_v3.Schema$LiveBroadcastSnippet {
  const title = input?.title;
  if (!title) throw youtubeErrors.broadcastRequired('titleRequired', 'snippet.title');
  if (title.length > 100) {
    throw youtubeErrors.broadcastInvalid('invalidTitle', "The snippet.title property's value must be between 1 and 100 characters long.");
  }
  const description = input.description ?? '';
  if (description.length > 5000) throw youtubeErrors.broadcastInvalid('invalidDescription', "The property's value can contain up to 5000 characters.");
  if (!input.scheduledStartTime) throw youtubeErrors.broadcastRequired('scheduledStartTimeRequired', 'snippet.scheduledStartTime');
  if (Number.isNaN(Date.parse(input.scheduledStartTime))) {
    throw youtubeErrors.broadcastInvalid('invalidScheduledStartTime', 'The liveBroadcast resource contained an invalid value for snippet.scheduledStartTime.');
  }
  const end = input.scheduledEndTime;
  if (end && !(Date.parse(end) > Date.parse(input.scheduledStartTime))) {
    throw youtubeErrors.broadcastInvalid('invalidScheduledEndTime', 'The scheduled end time must follow the scheduled start time.');
  }
  return {
    title,
    description,
    scheduledStartTime: new Date(input.scheduledStartTime).toISOString(),
    ...(end ? { scheduledEndTime: new Date(end).toISOString() } : {}),
  };
}

function validStatus(input: youtube_v3.Schema$LiveBroadcastStatus | undefined): youtube_v3.Schema$LiveBroadcastStatus {
  const privacyStatus = input?.privacyStatus;
  if (!privacyStatus) throw youtubeErrors.broadcastRequired('privacyStatusRequired', 'status.privacyStatus');
  if (!PRIVACY.includes(privacyStatus)) {
    throw youtubeErrors.broadcastInvalid(
      'invalidPrivacyStatus',
      'The liveBroadcast resource contained an invalid value for the status.privacy_status property.',
    );
  }
  return { privacyStatus, selfDeclaredMadeForKids: input.selfDeclaredMadeForKids ?? false };
}

/** The settable contentDetails with YouTube's documented defaults. */
function contentDetails(id: string, input: youtube_v3.Schema$LiveBroadcastContentDetails | undefined): youtube_v3.Schema$LiveBroadcastContentDetails {
  const monitor = input?.monitorStream;
  return {
    monitorStream: {
      enableMonitorStream: monitor?.enableMonitorStream ?? true,
      broadcastStreamDelayMs: monitor?.broadcastStreamDelayMs ?? 0,
      embedHtml: `<iframe width="425" height="344" src="https://www.youtube.com/embed/${id}?autoplay=1&livemonitor=1" frameborder="0" allowfullscreen></iframe>`,
    },
    enableEmbed: input?.enableEmbed ?? true,
    enableDvr: input?.enableDvr ?? true,
    recordFromStart: input?.recordFromStart ?? true,
    enableClosedCaptions: input?.enableClosedCaptions ?? false,
    closedCaptionsType: 'closedCaptionsDisabled',
    projection: 'rectangular',
    enableLowLatency: false,
    latencyPreference: input?.latencyPreference ?? 'normal',
    enableAutoStart: input?.enableAutoStart ?? false,
    enableAutoStop: input?.enableAutoStop ?? false,
  };
}

function channelParts(channel: Channel): Record<string, object> {
  const avatar = (size: number) => ({ url: `https://yt3.ggpht.com/ytc/${channel.id}=s${size}-c-k-c0x00ffffff-no-rj`, width: size, height: size });
  return {
    snippet: {
      title: channel.title,
      description: channel.description,
      customUrl: channel.customUrl,
      publishedAt: channel.publishedAt,
      thumbnails: { default: avatar(88), medium: avatar(240), high: avatar(800) },
      localized: { title: channel.title, description: channel.description },
    },
    status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'allowed', madeForKids: false },
  };
}

function liveThumbnails(id: string): Thumbnails {
  const size = (name: string, width: number, height: number) => ({ url: `https://i.ytimg.com/vi/${id}/${name}_live.jpg`, width, height });
  return { default: size('default', 120, 90), medium: size('mqdefault', 320, 180), high: size('hqdefault', 480, 360) };
}

function customThumbnails(id: string): Thumbnails {
  const size = (name: string, width: number, height: number) => ({ url: `https://i.ytimg.com/vi/${id}/${name}.jpg`, width, height });
  return {
    default: size('default', 120, 90),
    medium: size('mqdefault', 320, 180),
    high: size('hqdefault', 480, 360),
    standard: size('sddefault', 640, 480),
    maxres: size('maxresdefault', 1280, 720),
  };
}

function isJpegOrPng(bytes: Buffer): boolean {
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return jpeg || png;
}

function etag(value: object): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64url').slice(0, 27);
}

/** kind, etag and id, then only the parts asked for. */
function project(kind: string, id: string, fields: Record<string, unknown>, parts: string[]): object {
  const projected: Record<string, unknown> = { kind, id };
  for (const part of parts) if (part !== 'id' && fields[part] !== undefined) projected[part] = structuredClone(fields[part]);
  return { kind, etag: etag(projected), ...projected };
}

function projectResource(kind: string, resource: object, parts: string[]): object {
  const { id, ...fields } = resource as { id: string } & Record<string, unknown>;
  return project(kind, id, fields, parts);
}

/** A page of a list answer: `maxResults` (0-50, default 5) and an opaque `pageToken`. */
function page(kind: string, items: object[], query: URLSearchParams): object {
  const maxResults = Number(query.get('maxResults') ?? 5);
  if (!Number.isInteger(maxResults) || maxResults < 0 || maxResults > 50) {
    throw youtubeErrors.invalidValue('maxResults', `Invalid value '${query.get('maxResults') ?? ''}'. Values must be within the range: [0, 50]`);
  }
  const token = query.get('pageToken');
  const offset = token
    ? Number(
        Buffer.from(token, 'base64url')
          .toString('utf8')
          .replace(/^offset:/, ''),
      )
    : 0;
  const slice = items.slice(offset, offset + maxResults);
  const next = offset + maxResults < items.length ? Buffer.from(`offset:${offset + maxResults}`).toString('base64url') : undefined;
  const answer = { kind, ...(next ? { nextPageToken: next } : {}), pageInfo: { totalResults: items.length, resultsPerPage: maxResults }, items: slice };
  return { ...answer, etag: etag(answer) };
}
