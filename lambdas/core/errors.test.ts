import { AppError, errorBody, errorCatalogue, isErrorKey } from './errors';

// Spec section 8 (and section 5's messages), verbatim: the product is checked against these words.
const specCatalogue: [string, string][] = [
  ['password reset email failed', 'Failed to send password reset email. Please try again'],
  ['uploader token error', 'Upload failed due to authentication error. Please refresh and try again'],
  ['uploader encode error', 'File encoding error occurred during upload. Please try uploading again'],
  ['not found', 'The requested item was not found'],
  ['not owner', "You don't have permission to access this resource"],
  ['starting stream failed', 'Failed to start YouTube stream. Please check your connection and try again'],
  ['updating stream failed', 'Failed to update stream settings. Please try again'],
  ['thumbnail save failed', 'Unable to save thumbnail image. Please try again'],
  ['payment provider missing configuration', 'Payment system configuration error. Please contact support'],
  ['wrong signature', 'Payment verification failed. Please try again'],
  ['wrong order id', 'Invalid payment order. Please start a new payment'],
  ['registration error', 'Registration failed. Please check your information and try again'],
  ['unknown plan', 'The selected subscription plan is not available'],
  ['no valid payment', 'No valid payment method found. Please add a payment method'],
  ['stream limit', "You've reached your streaming limit. Please upgrade your plan or wait until next billing cycle"],
  ['stream not found', 'Stream not found or no longer available'],
  ['video upload limit', 'Upload limit exceeded. Please upgrade your plan or wait until next billing cycle'],
  ['no active subscription', 'No active subscription found. Please subscribe to continue'],
  ['stream pending', 'Stream is currently being processed. Please wait'],
  ['stream encoding', 'Stream is currently being encoded. Please wait'],
  ['stream started', "Cannot modify stream while it's currently live"],
  ['Google refresh token error', "The user removed the app's access in their Google settings and must reconnect"],
  ['video encoding', 'Video is currently being processed. Please wait until encoding is complete'],
  ['video in use', 'This video is currently being used and cannot be modified'],
  ['disposable email', 'Temporary email addresses is not allowed'],
  ['validation.bad_email', 'Invalid email address'],
  ['duplicate restart times', 'You have two restart times scheduled for the same time. Please choose different times for each restart.'],
  ['already exists', 'This item already exists'],
  ['invalid number', 'Please enter a valid number'],
];

describe('error catalogue', () => {
  test.each(specCatalogue)('%s has the spec message', (key, message) => {
    expect(isErrorKey(key)).toBe(true);
    expect(errorCatalogue[key as keyof typeof errorCatalogue].message).toBe(message);
  });

  test('the YouTube live-streaming message links to the YouTube features page', () => {
    expect(errorCatalogue['livestreaming not enabled'].message).toContain('https://www.youtube.com/features');
    expect(errorCatalogue['livestreaming not enabled'].message).toContain('24 hours');
  });

  test('every entry is an HTTP error status; only the catch-all is a 500', () => {
    for (const [key, { status }] of Object.entries(errorCatalogue)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      if (status === 500) expect(key).toBe('internal error');
    }
  });

  test('an AppError carries the status and renders the public body', () => {
    const error = new AppError('stream started', { streamId: 's1' });
    expect(error.status).toBe(409);
    expect(errorBody(error)).toEqual({ error: 'stream started', message: "Cannot modify stream while it's currently live", details: { streamId: 's1' } });
  });

  test('unknown keys are not catalogue keys', () => {
    expect(isErrorKey('toString')).toBe(false);
    expect(isErrorKey('no such key')).toBe(false);
  });
});
