import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showToast } from '../../../components/toasts/toast-store';
import { useI18n } from '../../../i18n/i18n-context';
import { useChannels } from '../api/channels-api';
import { connectReturnOf, withoutConnectReturn, type ConnectReturn } from '../youtube-connect';

/**
 * Back from Google's consent screen: what the callback said, read once and kept while the page is open; the address
 * loses it at once (a reload must not announce it again). A new channel is announced once the list shows it.
 */
export function useConnectReturn(): ConnectReturn | undefined {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const [answer] = useState(() => connectReturnOf(params));
  useEffect(() => {
    if (connectReturnOf(params)) setParams(withoutConnectReturn(params), { replace: true, preventScrollReset: true });
  }, [params, setParams]);

  const channels = useChannels();
  const connectedId = answer && 'connected' in answer ? answer.connected : undefined;
  const name = channels.data?.find((channel) => channel.id === connectedId)?.name;
  const announced = useRef(false);
  useEffect(() => {
    if (name === undefined || announced.current) return;
    announced.current = true;
    showToast({ message: t('channels.youtube.connected', { name }), tone: 'success' });
  }, [name, t]);
  return answer;
}
