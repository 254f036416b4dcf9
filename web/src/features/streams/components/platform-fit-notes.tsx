import { presetById } from '@loopcast/contract/destination-presets';
import { platformFit, streamReadyVideoOf, type VideoItemProperties } from '@loopcast/core/channels/platform-fit';
import { useI18n } from '../../../i18n/i18n-context';
import { describeFindings } from '../../../lib/platform-text';
import type { ChannelView } from '../api/stream-sources';

/**
 * The stream's video against its destinations' platforms, as the API checks it (lambdas/core/channels/
 * platform-fit.ts): a platform that cannot take the video is a problem (the API refuses to save or start such a
 * stream), one whose recommendation it is outside of is a warning. Nothing while the video has no stream-ready
 * properties yet.
 */
export function PlatformFitNotes({ video, channels }: { video: VideoItemProperties | undefined; channels: ChannelView[] }) {
  const { t, language } = useI18n();
  const ready = video && streamReadyVideoOf(video);
  if (!ready) return null;
  const notes = channels.flatMap((channel) => {
    const preset = presetById(channel.preset);
    const fit = platformFit(preset, ready);
    const texts = { destination: channel.name, platform: preset.name };
    return [
      ...(fit.refusals.length
        ? [
            {
              id: `${channel.id}-refusal`,
              kind: 'refusal',
              text: t('platforms.refusal', { ...texts, findings: describeFindings(t, language.htmlLang, fit.refusals) }),
            },
          ]
        : []),
      ...(fit.advice.length
        ? [
            {
              id: `${channel.id}-advice`,
              kind: 'advice',
              text: t('platforms.advice', { ...texts, findings: describeFindings(t, language.htmlLang, fit.advice) }),
            },
          ]
        : []),
    ];
  });
  if (!notes.length) return null;
  return (
    <ul className="platform-fit">
      {notes.map((note) => (
        <li key={note.id} className={`platform-fit__${note.kind}`} data-fit={note.kind} role={note.kind === 'refusal' ? 'alert' : 'status'}>
          {note.text}
        </li>
      ))}
    </ul>
  );
}
