// Google's two error shapes. The OAuth endpoints answer `{ error, error_description }`; the YouTube Data API answers
// `{ error: { code, message, errors: [{ message, domain, reason, ... }], status? } }`, where `status` appears on the
// generic auth errors (as captured from the real API) and not on the YouTube-specific ones.
export interface GoogleErrorItem {
  message: string;
  domain: string;
  reason: string;
  location?: string;
  locationType?: string;
  extendedHelp?: string;
}

export interface YouTubeErrorBody {
  error: {
    code: number;
    message: string;
    errors: GoogleErrorItem[];
    status?: string;
    details?: object[];
  };
}

export class YouTubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: YouTubeErrorBody,
  ) {
    super(body.error.message);
  }

  get reason(): string {
    return this.body.error.errors[0]?.reason ?? '';
  }
}

function youtubeError(status: number, domain: string, reason: string, message: string, extra: Partial<GoogleErrorItem> = {}): YouTubeApiError {
  return new YouTubeApiError(status, { error: { code: status, message, errors: [{ message, domain, reason, ...extra }] } });
}

const broadcast = (status: number, reason: string, message: string) => youtubeError(status, 'youtube.liveBroadcast', reason, message);
const stream = (status: number, reason: string, message: string) => youtubeError(status, 'youtube.liveStream', reason, message);
const REQUEST_CREDENTIALS =
  'Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

export const youtubeErrors = {
  loginRequired: () =>
    new YouTubeApiError(401, {
      error: {
        code: 401,
        message: `Request is missing required authentication credential. ${REQUEST_CREDENTIALS}`,
        errors: [{ message: 'Login Required.', domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    }),
  invalidCredentials: () =>
    new YouTubeApiError(401, {
      error: {
        code: 401,
        message: `Request had invalid authentication credentials. ${REQUEST_CREDENTIALS}`,
        errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
        status: 'UNAUTHENTICATED',
      },
    }),
  insufficientScopes: () =>
    new YouTubeApiError(403, {
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
        status: 'PERMISSION_DENIED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
            domain: 'googleapis.com',
            metadata: { service: 'youtube.googleapis.com' },
          },
        ],
      },
    }),
  quotaExceeded: () => {
    const message = 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.';
    return new YouTubeApiError(403, { error: { code: 403, message, errors: [{ message, domain: 'youtube.quota', reason: 'quotaExceeded' }] } });
  },
  requiredParameter: (name: string) => youtubeError(400, 'global', 'required', `Required parameter: ${name}`, { location: name, locationType: 'parameter' }),
  unknownPart: (part: string) => youtubeError(400, 'youtube.part', 'unknownPart', `'${part}'`, { location: 'part', locationType: 'parameter' }),
  invalidValue: (name: string, message: string) => youtubeError(400, 'global', 'invalidValue', message, { location: name, locationType: 'parameter' }),
  noFilter: (filters: string[]) =>
    youtubeError(400, 'youtube.parameter', 'missingRequiredParameter', `No filter selected. Expected one of: ${filters.join(', ')}`, {
      location: 'parameters.',
      locationType: 'other',
    }),
  incompatibleFilters: (names: string[]) =>
    youtubeError(400, 'youtube.parameter', 'incompatibleParameters', `Incompatible parameters specified in the request: ${names.join(', ')}`, {
      location: 'parameters.',
      locationType: 'other',
    }),
  liveStreamingNotEnabled: () =>
    youtubeError(403, 'youtube.liveBroadcast', 'liveStreamingNotEnabled', 'The user is not enabled for live streaming.', {
      extendedHelp: 'https://www.youtube.com/features',
    }),
  broadcastRequired: (reason: 'titleRequired' | 'scheduledStartTimeRequired' | 'privacyStatusRequired' | 'idRequired', property: string) =>
    broadcast(400, reason, `The liveBroadcast resource must specify the ${property} property.`),
  broadcastInvalid: (reason: string, message: string) => broadcast(400, reason, message),
  broadcastNotFound: () => broadcast(404, 'liveBroadcastNotFound', 'The broadcast specified by the id parameter does not exist.'),
  bindingNotAllowed: () =>
    broadcast(403, 'liveBroadcastBindingNotAllowed', 'The current status of the live broadcast does not allow it to be bound to a stream.'),
  invalidTransition: () => broadcast(403, 'invalidTransition', "The live broadcast can't transition from its current status to the requested status."),
  redundantTransition: () =>
    broadcast(
      403,
      'redundantTransition',
      'The live broadcast is already in the requested status or is in the process of transitioning to the requested status.',
    ),
  streamInactive: () =>
    broadcast(403, 'errorStreamInactive', 'The requested transition is not allowed when the stream that is bound to the broadcast is inactive.'),
  streamNotFound: (parameter: 'id' | 'streamId') => stream(404, 'liveStreamNotFound', `The stream specified by the ${parameter} parameter does not exist.`),
  streamRequired: (reason: string, property: string) => stream(400, reason, `The liveStream resource must specify the ${property} property.`),
  streamInvalid: (reason: string, message: string) => stream(400, reason, message),
  videoNotFound: () =>
    youtubeError(404, 'youtube.thumbnail', 'videoNotFound', 'The video that you are trying to insert a thumbnail image for cannot be found.', {
      location: 'videoId',
      locationType: 'parameter',
    }),
  thumbnailForbidden: () =>
    youtubeError(403, 'youtube.thumbnail', 'forbidden', "The thumbnail can't be set for the specified video. The request might not be properly authorized."),
  mediaBodyRequired: () => youtubeError(400, 'youtube.thumbnail', 'mediaBodyRequired', 'The request does not include the image content.'),
  invalidImage: () => youtubeError(400, 'youtube.thumbnail', 'invalidImage', 'The provided image content is invalid.'),
  unsupportedMediaType: (type: string, accepted: string[]) =>
    youtubeError(400, 'global', 'badContent', `Media type '${type}' is not supported. Valid media types: [${accepted.join(', ')}]`),
};

/** OAuth endpoint errors: `{ error, error_description }` with the status Google uses. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}
