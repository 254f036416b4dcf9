// Where the common platforms take RTMP streams, so a creator only pastes the stream key. Each platform shows its
// server URL beside the key in its own studio; these are the addresses for everyone (no per-account host).

export const rtmpPresets = [
  { id: 'youtube', name: 'YouTube', url: 'rtmp://a.rtmp.youtube.com/live2' },
  { id: 'twitch', name: 'Twitch', url: 'rtmp://live.twitch.tv/app' },
  { id: 'facebook', name: 'Facebook', url: 'rtmps://live-api-s.facebook.com:443/rtmp' },
  { id: 'kick', name: 'Kick', url: 'rtmps://fa723fc1b171.global-contribute.live-video.net/app' },
] as const;

export type PlatformId = (typeof rtmpPresets)[number]['id'];
/** A platform, or 'custom': any other RTMP server the user types in. */
export type PresetId = PlatformId | 'custom';

export interface RtmpDraft {
  preset: PresetId;
  name: string;
  url: string;
  key: string;
}

const presetById = (id: PresetId) => rtmpPresets.find((preset) => preset.id === id);
const isPresetName = (name: string) => rtmpPresets.some((preset) => preset.name === name);
const isPresetUrl = (url: string) => rtmpPresets.some((preset) => preset.url === url);

export const emptyRtmpDraft = (): RtmpDraft => ({ preset: 'youtube', name: rtmpPresets[0].name, url: rtmpPresets[0].url, key: '' });

/**
 * A platform fills in its server URL, and its name unless the user typed a name of their own. 'Custom' clears what
 * a platform filled in and keeps what the user typed.
 */
export function choosePreset(draft: RtmpDraft, id: PresetId): RtmpDraft {
  const preset = presetById(id);
  const nameIsOurs = draft.name.trim() === '' || isPresetName(draft.name);
  if (!preset) return { ...draft, preset: id, url: isPresetUrl(draft.url) ? '' : draft.url, name: nameIsOurs ? '' : draft.name };
  return { ...draft, preset: id, url: preset.url, name: nameIsOurs ? preset.name : draft.name };
}

/** Typing a server URL selects the platform it belongs to, or 'custom'. */
export function editServerUrl(draft: RtmpDraft, url: string): RtmpDraft {
  return { ...draft, url, preset: rtmpPresets.find((preset) => preset.url === url.trim())?.id ?? 'custom' };
}
