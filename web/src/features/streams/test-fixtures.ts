// What the streams components' tests give them: a ready video as GET /videos answers it.
export const readyVideo = (id: string, title: string) => ({
  id,
  kind: 'video',
  title,
  fileName: `${id}.mp4`,
  status: 'ready',
  progress: 100,
  sizeBytes: 1,
  hasThumbnail: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});
