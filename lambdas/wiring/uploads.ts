// Composition: what the tus upload server asks of the rest of the product (lambdas/uploads/tus-server.ts).
import type { Deps } from './deps';
import { DynamoUsageStore } from '../adapters/dynamo/usage-store';
import * as library from '../core/media/library';
import { defaultQuality, type QualityChoice } from '../core/media-spec';
import { authenticateSession } from '../http/session-auth';
import type { UploadHooks, UploadMetadata } from '../uploads/tus-server';
import { libraryContext } from './media';

/** A video's profile and tier from its upload metadata, each defaulted on its own; audio items have none. */
const qualityOf = (metadata: UploadMetadata): QualityChoice | undefined =>
  metadata.kind === 'video' ? { profile: metadata.profile ?? defaultQuality.profile, tier: metadata.tier ?? defaultQuality.tier } : undefined;

/** Made once per upload server (and so per Deps). */
export function uploadHooks(deps: Deps): UploadHooks {
  const usageStore = new DynamoUsageStore(deps.db, deps.config.tables.app);
  return {
    async authenticate(token) {
      const session = await authenticateSession(token, deps);
      return session ? { userId: session.userId } : undefined;
    },
    async authorizeCreation({ userId, uploadId, uploadLength, metadata, expiresAt, joining }) {
      const context = libraryContext(deps);
      const entitlement = await context.entitlement(userId);
      const usage = await usageStore.usage(userId, entitlement.cycleStart);
      const quality = qualityOf(metadata);
      await library.authorizeUpload(
        { ...context, entitlement: async () => entitlement },
        { userId, uploadId, uploadLength, expiresAt, ...(joining ? { joining } : {}), ...(quality ? { quality } : {}) },
        usage,
      );
    },
    async uploadsEnded(userId, uploadIds) {
      await libraryContext(deps).staging.release(userId, uploadIds);
    },
    async onUploadFinished(upload) {
      const quality = qualityOf(upload.metadata);
      await library.registerUpload(libraryContext(deps), {
        userId: upload.userId,
        uploadId: upload.uploadId,
        key: upload.key,
        // @tus/s3-store keeps the upload's metadata beside it as `<key>.info`.
        stagingKeys: [upload.key, `${upload.key}.info`],
        size: upload.size,
        fileName: upload.metadata.filename,
        kind: upload.metadata.kind,
        ...(quality ? { quality } : {}),
      });
      // Uploads started, completed and failed, and their duration, are recorded by the upload server around these
      // hooks (lambdas/uploads/upload-metrics.ts).
    },
  };
}
