// The error catalogue: every error a user can see, defined once. The API answers `{ error: key, message }`
// with the status below; the web app translates by key (web/src/i18n/locales/*.json, section "errors").
// Keys and English messages of spec section 8 are kept verbatim (one row there names its key by a description:
// 'livestreaming not enabled'); the rest are our extensions (docs/api.md, docs/decisions.md).

export const errorCatalogue = {
  // spec section 8
  'password reset email failed': { status: 502, message: 'Failed to send password reset email. Please try again' },
  'uploader token error': { status: 401, message: 'Upload failed due to authentication error. Please refresh and try again' },
  'uploader encode error': { status: 422, message: 'File encoding error occurred during upload. Please try uploading again' },
  'not found': { status: 404, message: 'The requested item was not found' },
  'not owner': { status: 403, message: "You don't have permission to access this resource" },
  'starting stream failed': { status: 502, message: 'Failed to start YouTube stream. Please check your connection and try again' },
  'updating stream failed': { status: 502, message: 'Failed to update stream settings. Please try again' },
  'thumbnail save failed': { status: 422, message: 'Unable to save thumbnail image. Please try again' },
  'payment provider missing configuration': { status: 503, message: 'Payment system configuration error. Please contact support' },
  'wrong signature': { status: 400, message: 'Payment verification failed. Please try again' },
  'wrong order id': { status: 403, message: 'Invalid payment order. Please start a new payment' },
  'registration error': { status: 400, message: 'Registration failed. Please check your information and try again' },
  'unknown plan': { status: 422, message: 'The selected subscription plan is not available' },
  'no valid payment': { status: 402, message: 'No valid payment method found. Please add a payment method' },
  'stream limit': { status: 403, message: "You've reached your streaming limit. Please upgrade your plan or wait until next billing cycle" },
  'stream not found': { status: 404, message: 'Stream not found or no longer available' },
  'video upload limit': { status: 403, message: 'Upload limit exceeded. Please upgrade your plan or wait until next billing cycle' },
  'no active subscription': { status: 402, message: 'No active subscription found. Please subscribe to continue' },
  'stream pending': { status: 409, message: 'Stream is currently being processed. Please wait' },
  'stream encoding': { status: 409, message: 'Stream is currently being encoded. Please wait' },
  'stream started': { status: 409, message: "Cannot modify stream while it's currently live" },
  'Google refresh token error': { status: 409, message: "The user removed the app's access in their Google settings and must reconnect" },
  'video encoding': { status: 409, message: 'Video is currently being processed. Please wait until encoding is complete' },
  'video in use': { status: 409, message: 'This video is currently being used and cannot be modified' },
  'livestreaming not enabled': {
    status: 409,
    message:
      'Live streaming is not enabled on this YouTube channel. Enable it at https://www.youtube.com/features (it can take up to 24 hours), then try again',
  },
  'disposable email': { status: 422, message: 'Temporary email addresses is not allowed' },
  'validation.bad_email': { status: 422, message: 'Invalid email address' },
  'duplicate restart times': {
    status: 422,
    message: 'You have two restart times scheduled for the same time. Please choose different times for each restart.',
  },
  // spec section 5 messages without a section 8 key
  'already exists': { status: 409, message: 'This item already exists' },
  'invalid number': { status: 422, message: 'Please enter a valid number' },

  // our extensions
  'invalid request': { status: 400, message: 'The request is not valid. Please check the highlighted fields' },
  'malformed json': { status: 400, message: 'The request body is not valid JSON' },
  'payload too large': { status: 413, message: 'The request body is too large' },
  'unsupported media type': { status: 415, message: 'The request body must be JSON' },
  unauthorized: { status: 401, message: 'Please sign in to continue' },
  'invalid credentials': { status: 401, message: 'The e-mail or password is not correct' },
  'email not confirmed': { status: 403, message: 'Please confirm your e-mail address first. We have sent you a link' },
  'account suspended': { status: 403, message: 'This account is suspended. Please contact support' },
  'invalid token': { status: 400, message: 'This link is invalid or has expired. Please request a new one' },
  'weak password': { status: 422, message: 'Please choose a stronger password: at least 10 characters and not a common one' },
  'too many requests': { status: 429, message: 'Too many attempts. Please wait a little and try again' },
  'route not found': { status: 404, message: 'This API route does not exist' },
  'method not allowed': { status: 405, message: 'This method is not allowed on this route' },
  'plan feature unavailable': { status: 403, message: 'Your plan does not include this feature. Please upgrade your plan' },
  'upload not found': { status: 404, message: 'This upload does not exist or has expired. Please start it again' },
  'storage limit': { status: 403, message: 'Not enough storage left on your plan. Delete a file or upgrade your plan' },
  'youtube not configured': { status: 503, message: 'YouTube is not configured on this server. Stream keys still work' },
  'youtube scope missing': {
    status: 422,
    message: 'YouTube access was not granted. Please connect again and allow Loopcast to manage your YouTube account',
  },
  'channel limit': { status: 403, message: 'Connecting more than one YouTube account needs the Pro or Custom plan' },
  'duplicate destination': { status: 409, message: 'You already have a destination with this name or stream key' },
  'playlist limit': { status: 403, message: 'This playlist has more videos than your plan allows. Remove some or upgrade your plan' },
  'video too long': { status: 422, message: 'This video is longer than your plan allows. Upload a shorter one or upgrade your plan' },
  'quality above current': {
    status: 422,
    message: 'This video can only be made lighter from here, as its original is not kept. Upload the original again for a higher quality',
  },
  'direct access refused': { status: 403, message: 'Please open Loopcast at its own address' },
  'destination not allowed': {
    status: 422,
    message: "This server address cannot be used. Enter your streaming platform's public RTMP address",
  },
  'platform requires rtmps': {
    status: 422,
    message: 'This platform takes secure RTMPS addresses only. Use the rtmps:// server URL the platform shows',
  },
  'destination limits exceeded': {
    status: 422,
    message:
      'This video is beyond what one of the destinations accepts (frame size, frame rate, bitrate or keyframe interval). Encode it with a lower output profile, or remove that destination',
  },
  // A stream task's reason, not an API answer: an RTMPS destination's certificate failed verification.
  'destination certificate refused': {
    status: 502,
    message:
      "A destination's server showed a certificate that could not be verified (not for that server name, or not signed by a trusted authority), so Loopcast does not stream to it. Check the server URL your platform shows",
  },
  'unsupported image': { status: 422, message: 'The thumbnail must be a JPEG or PNG image of at most 2 MB' },
  'task lease lost': { status: 409, message: 'This stream task does not carry its run (any more) and must stop' },
  'telegram not configured': { status: 503, message: 'Telegram notifications are not set up on this server. E-mail notifications still work' },
  'wrong password': { status: 403, message: 'The current password is not correct' },
  'same password': { status: 422, message: 'The new password must be different from the current one' },
  'same email': { status: 422, message: 'This is already the e-mail address of your account' },
  'email taken': { status: 409, message: 'This e-mail address already belongs to another Loopcast account' },
  'schedule time passed': { status: 422, message: 'This scheduled time has already passed. Please choose a time in the future' },
  'schedule stop before start': { status: 422, message: 'The scheduled stop must come after the start' },
  'schedule windows overlap': {
    status: 422,
    message: 'Two on-air windows of the timetable overlap. Please make each window end before the next one begins',
  },
  'service unavailable': { status: 503, message: 'A service Loopcast depends on is unavailable. Please try again shortly' },
  'internal error': { status: 500, message: 'Something went wrong on our side. Please try again' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export const isErrorKey = (value: unknown): value is ErrorKey => typeof value === 'string' && Object.hasOwn(errorCatalogue, value);

/** A failure the user is meant to see: always one catalogue key, optionally with field details. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly key: ErrorKey,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(errorCatalogue[key].message);
    this.name = 'AppError';
    this.status = errorCatalogue[key].status;
  }
}

export interface ErrorBody {
  error: ErrorKey;
  message: string;
  details?: Record<string, unknown>;
}

export const errorBody = (error: AppError): ErrorBody => ({
  error: error.key,
  message: errorCatalogue[error.key].message,
  ...(error.details ? { details: error.details } : {}),
});
