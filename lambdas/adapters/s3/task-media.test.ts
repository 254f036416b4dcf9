// Where a stream task downloads its media from: S3's dual-stack endpoint in AWS (reachable over IPv6 as well as
// IPv4), the local stand-in as configured.
import { S3Client } from '@aws-sdk/client-s3';
import { S3TaskMedia } from './task-media';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };

test('in AWS the download URL names the dual-stack endpoint, signed for the bucket and key', async () => {
  const media = new S3TaskMedia(new S3Client({ region: 'eu-west-1', credentials }), 'loopcast-media');
  const url = new URL(await media.downloadUrl('media/u1/v1/stream.mp4'));
  expect(url.host).toBe('loopcast-media.s3.dualstack.eu-west-1.amazonaws.com');
  expect(url.pathname).toBe('/media/u1/v1/stream.mp4');
  expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
  expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
});

test('a local stand-in (custom endpoint) is used as configured', async () => {
  const media = new S3TaskMedia(new S3Client({ region: 'us-east-1', credentials, endpoint: 'http://127.0.0.1:4569', forcePathStyle: true }), 'media');
  const url = new URL(await media.downloadUrl('media/u1/v1/stream.mp4'));
  expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:4569/media/media/u1/v1/stream.mp4');
});
