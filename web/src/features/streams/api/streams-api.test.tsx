/** @jest-environment jsdom */
// Start and stop change the plan's streams running now: the dashboard's "Your plan" card read "1 of 1" long after a
// Stop on the same page, while the live card beside it had the stream gone.
import { jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useStreamAction } from './streams-api';

test.each(['start', 'stop'] as const)('%s puts the answer in the cache and asks for the plan usage again', async (action) => {
  const status = action === 'start' ? 'pending' : 'stopping';
  globalThis.fetch = jest.fn(
    async () => ({ ok: true, status: 200, text: async () => JSON.stringify({ id: 's1', title: 'Rain', status }) }) as unknown as Response,
  ) as unknown as typeof fetch;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['subscription'], { usage: { runningStreams: action === 'start' ? 0 : 1 } });
  client.setQueryData(['streams'], { streams: [{ id: 's1', title: 'Rain', status: action === 'start' ? 'stopped' : 'started' }] });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { result } = renderHook(() => useStreamAction('s1', action), { wrapper });
  await act(async () => {
    await result.current.mutateAsync();
  });
  await waitFor(() => expect(client.getQueryState(['subscription'])?.isInvalidated).toBe(true));
  expect(client.getQueryData(['streams'])).toEqual({ streams: [{ id: 's1', title: 'Rain', status }] });
});
