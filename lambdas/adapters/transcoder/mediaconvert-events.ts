// EventBridge "MediaConvert Job State Change" events (source aws.mediaconvert) of our jobs, read strictly. Pure.
// Shapes: https://docs.aws.amazon.com/mediaconvert/latest/ug/mediaconvert_cwe_events.html (PROGRESSING,
// STATUS_UPDATE, COMPLETE, ERROR, CANCELED; INPUT_INFORMATION, NEW_WARNING and QUEUE_HOP carry nothing we need).
import { z } from 'zod';
import { bitrateTiers, outputProfileIds, outputSettings, type OutputLimit, type OutputSettings } from '../../core/media-spec';
import type { TranscodeErrorKey, TranscodeJobRef } from '../../core/media/transcoder';

const outputLimits = ['source size', 'source frame rate', 'plan'] as const satisfies readonly OutputLimit[];

/** The job's user metadata (mediaconvert-job.ts JobUserMetadata) read back. Jobs created before revisions and profiles
 * existed have neither: revision 0, and the output every video had then (1080p30 at 6 Mbit/s, today's `high`). */
const metadataSchema = z
  .object({
    userId: z.string().min(1),
    videoId: z.string().min(1),
    kind: z.enum(['video', 'audio']),
    outputPrefix: z.string().min(1),
    revision: z
      .string()
      .regex(/^\d{1,9}$/)
      .optional(),
    profile: z.enum(outputProfileIds).optional(),
    tier: z.enum(bitrateTiers).optional(),
    limitedBy: z.string().optional(),
  })
  .transform(({ revision, profile, tier, limitedBy, ...job }) => ({
    ...job,
    revision: Number(revision ?? 0),
    output: outputSettings(
      profile ?? '1080p30',
      tier ?? 'high',
      (limitedBy ?? '').split(',').filter((limit): limit is OutputLimit => (outputLimits as readonly string[]).includes(limit)),
    ),
  }));

/** What an event's job is: its item, where it writes, and (videos) the output its plan chose. */
export interface JobMetadata extends TranscodeJobRef {
  outputPrefix: string;
  output: OutputSettings;
}

const outputDetailSchema = z.object({
  outputFilePaths: z.array(z.string()).optional(),
  durationInMs: z.number().optional(),
  videoDetails: z.object({ widthInPx: z.number().optional(), heightInPx: z.number().optional() }).optional(),
});

const eventSchema = z.object({
  source: z.literal('aws.mediaconvert'),
  'detail-type': z.literal('MediaConvert Job State Change'),
  detail: z.object({
    jobId: z.string().min(1),
    status: z.string(),
    userMetadata: z.record(z.string(), z.string()).optional(),
    errorCode: z.number().optional(),
    errorMessage: z.string().optional(),
    jobProgress: z.object({ jobPercentComplete: z.number().optional() }).optional(),
    outputGroupDetails: z.array(z.object({ type: z.string().optional(), outputDetails: z.array(outputDetailSchema).optional() })).optional(),
  }),
});

export interface JobOutput {
  /** `s3://bucket/key` of the written file (for frame capture: the last image). */
  path: string;
  durationMs?: number;
  width?: number;
  height?: number;
}

export type JobStateChange =
  | { status: 'PROGRESSING'; jobId: string; metadata: JobMetadata; percent: number }
  | { status: 'COMPLETE'; jobId: string; metadata: JobMetadata; outputs: JobOutput[] }
  | { status: 'ERROR'; jobId: string; metadata: JobMetadata; errorCode: number; errorMessage: string }
  | { status: 'CANCELED'; jobId: string; metadata: JobMetadata };

/**
 * The state change of one of our jobs, or undefined for events that are not (another application's job, or a
 * status that changes nothing for the item). Throws when an event of ours does not have the documented shape.
 */
export function parseJobStateChange(event: unknown): JobStateChange | undefined {
  const { detail } = eventSchema.parse(event);
  const ours = metadataSchema.safeParse(detail.userMetadata ?? {});
  if (!ours.success) return undefined;
  const base = { jobId: detail.jobId, metadata: ours.data };
  switch (detail.status) {
    case 'PROGRESSING':
      return { ...base, status: 'PROGRESSING', percent: 0 };
    case 'STATUS_UPDATE':
      return { ...base, status: 'PROGRESSING', percent: detail.jobProgress?.jobPercentComplete ?? 0 };
    case 'COMPLETE':
      return {
        ...base,
        status: 'COMPLETE',
        outputs: (detail.outputGroupDetails ?? []).flatMap((group) =>
          (group.outputDetails ?? []).flatMap((output) =>
            (output.outputFilePaths ?? []).map((path) => ({
              path,
              ...(output.durationInMs !== undefined ? { durationMs: output.durationInMs } : {}),
              ...(output.videoDetails?.widthInPx !== undefined ? { width: output.videoDetails.widthInPx } : {}),
              ...(output.videoDetails?.heightInPx !== undefined ? { height: output.videoDetails.heightInPx } : {}),
            })),
          ),
        ),
      };
    case 'ERROR':
      return { ...base, status: 'ERROR', errorCode: detail.errorCode ?? 0, errorMessage: detail.errorMessage ?? '' };
    case 'CANCELED':
      return { ...base, status: 'CANCELED' };
    default:
      return undefined;
  }
}

/**
 * MediaConvert error codes that mean the source itself cannot be decoded (the user should upload another
 * file): input unreadable (1010), no video (1020) or audio (1021) found, unsupported codec or container (1030),
 * demuxer parse error (1075), truncated file (1076), undecodable audio (1092). Everything else (settings, IAM,
 * S3 access, disk, unknown) is ours. https://docs.aws.amazon.com/mediaconvert/latest/ug/mediaconvert_error_codes.html
 */
const sourceErrorCodes = new Set([1010, 1020, 1021, 1030, 1075, 1076, 1092]);

export const errorKeyForCode = (code: number): TranscodeErrorKey => (sourceErrorCodes.has(code) ? 'uploader encode error' : 'internal error');
