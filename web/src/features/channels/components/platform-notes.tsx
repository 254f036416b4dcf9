import { presetById, type DestinationPresetId } from '@loopcast/contract/destination-presets';
import { useI18n } from '../../../i18n/i18n-context';
import { describePlatform } from '../../../lib/platform-text';

/** What the picked platform asks for: where its server URL and key are, RTMPS, its limits, and its own help page. */
export function PlatformNotes({ id, preset }: { id: string; preset: DestinationPresetId }) {
  const { t, language } = useI18n();
  const platform = presetById(preset);
  const lines =
    preset === 'custom'
      ? [t('platforms.customNote')]
      : [
          ...(platform.ingest.kind === 'per-user' ? [t('platforms.perUser', { platform: platform.name })] : []),
          ...(platform.rtmpsRequired ? [t('platforms.rtmpsOnly', { platform: platform.name })] : []),
          ...describePlatform(t, language.htmlLang, preset),
        ];
  return (
    <div id={id} className="dest-platform-notes" data-platform={preset} aria-live="polite">
      <ul className="dest-platform-notes__lines">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {(platform.helpUrl || platform.keyUrl) && (
        <p className="dest-platform-notes__links">
          {platform.helpUrl && (
            <a href={platform.helpUrl} target="_blank" rel="noopener noreferrer" data-link="help">
              {t('platforms.help', { platform: platform.name })}
            </a>
          )}
          {platform.keyUrl && (
            <a href={platform.keyUrl} target="_blank" rel="noopener noreferrer" data-link="key">
              {t('platforms.keyPage', { platform: platform.name })}
            </a>
          )}
        </p>
      )}
    </div>
  );
}
