// The destinations a user streams to (docs/api.md, "Destinations"). The cache holds the API's answer as it is:
// ['channels'] -> { channels: ChannelView[] }; the Streams page reads the same entry for its destination choices.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChannelView } from '../../../../../lambdas/core/channels/channel';
import { api } from '../../../api/client';

export type { ChannelView };

export const channelsKey = ['channels'] as const;

interface ChannelsAnswer {
  channels: ChannelView[];
}

export interface RtmpChannelInput {
  name: string;
  url: string;
  key: string;
}

export const useChannels = () =>
  useQuery({
    queryKey: channelsKey,
    queryFn: ({ signal }) => api.get<ChannelsAnswer>('/channels', undefined, signal),
    select: (answer) => answer.channels,
  });

export function useAddRtmpChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RtmpChannelInput) => api.post<ChannelView>('/channels/rtmp', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsKey }),
  });
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (channelId: string) => api.delete<void>(`/channels/${encodeURIComponent(channelId)}`),
    // Stopped streams forget a deleted destination, so their cached copies change too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: channelsKey }), queryClient.invalidateQueries({ queryKey: ['streams'] })]),
  });
}
