// The platform picker's draft: choosing a platform fills in its server URL (when it has one for everyone) and its
// name, so a creator only pastes the stream key; a platform that shows each creator their own server URL leaves
// the field for them to paste. The platforms are the API's own table (lambdas/contract/destination-presets.ts).
import { destinationPresets, presetById, type DestinationPresetId } from '@loopcast/contract/destination-presets';
import { presetOfUrl } from '@loopcast/core/channels/platform-fit';

export type PresetId = DestinationPresetId;

export interface RtmpDraft {
  preset: PresetId;
  name: string;
  url: string;
  key: string;
}

/** The server URL a platform fills in, when it has one address for everyone. */
export const fixedUrlOf = (id: PresetId): string | undefined => {
  const { ingest } = presetById(id);
  return ingest.kind === 'fixed' ? ingest.url : undefined;
};

/** The name a platform fills in (Custom has none: the creator names their server). */
const nameOf = (id: PresetId) => (id === 'custom' ? '' : presetById(id).name);
const isPresetName = (name: string) => destinationPresets.some((preset) => preset.id !== 'custom' && preset.name === name);
const isFixedUrl = (url: string) => destinationPresets.some((preset) => fixedUrlOf(preset.id) === url);

export const emptyRtmpDraft = (): RtmpDraft => ({ preset: 'youtube', name: nameOf('youtube'), url: fixedUrlOf('youtube')!, key: '' });

/**
 * A platform fills in its server URL when it has one for everyone, and its name unless the user typed a name of
 * their own. One that shows each creator their own server (and Custom) clears what a platform filled in and keeps
 * what the user typed.
 */
export function choosePreset(draft: RtmpDraft, id: PresetId): RtmpDraft {
  const nameIsOurs = draft.name.trim() === '' || isPresetName(draft.name.trim());
  const url = fixedUrlOf(id) ?? (isFixedUrl(draft.url.trim()) ? '' : draft.url);
  return { ...draft, preset: id, url, name: nameIsOurs ? nameOf(id) : draft.name };
}

/** Typing a server URL: a platform's own address selects it; a server the creator was told to paste stays with the
 * platform picked; any other is the platform its host belongs to, else Custom. */
export function editServerUrl(draft: RtmpDraft, url: string): RtmpDraft {
  const typed = url.trim();
  const fixedOwner = destinationPresets.find((preset) => fixedUrlOf(preset.id) === typed);
  if (fixedOwner) return { ...draft, url, preset: fixedOwner.id };
  if (presetById(draft.preset).ingest.kind === 'per-user' && draft.preset !== 'custom') return { ...draft, url };
  return { ...draft, url, preset: presetOfUrl(typed) };
}
