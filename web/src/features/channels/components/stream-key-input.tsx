import { useState, type InputHTMLAttributes } from 'react';
import { useI18n } from '../../../i18n/i18n-context';

/** A stream key is a secret: hidden like a password, with a button to check what was pasted. */
export function StreamKeyInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  return (
    <div className="dest-secret">
      <input
        {...props}
        type={shown ? 'text' : 'password'}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className="dest-input dest-secret__input"
      />
      <button type="button" className="dest-secret__toggle" aria-controls={props.id} onClick={() => setShown(!shown)}>
        {shown ? t('channels.rtmp.hideKey') : t('channels.rtmp.showKey')}
      </button>
    </div>
  );
}
