// Stripe's error object: `{ error: { type, code?, message, param?, doc_url? } }` with the HTTP status the real API
// uses. The stripe library picks its error class from the status (400/404 StripeInvalidRequestError, 401
// StripeAuthenticationError, ...) and the type (idempotency_error StripeIdempotencyError).
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'idempotency_error' | 'api_error';
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    /** Stripe saves no idempotent result for a request that failed parameter validation. */
    readonly savesIdempotentResult = true,
  ) {
    super(body.message);
  }
}

function coded(status: number, code: string, message: string, param?: string, saves = true): StripeApiError {
  const body: StripeErrorBody = {
    type: 'invalid_request_error',
    code,
    message,
    doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`,
    ...(param === undefined ? {} : { param }),
  };
  return new StripeApiError(status, body, saves);
}

const SUPPORT = 'or we can help at https://support.stripe.com/.';

export const stripeErrors = {
  noApiKey: () =>
    new StripeApiError(401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). " +
        `See https://stripe.com/docs/api#authentication for details, ${SUPPORT}`,
    }),
  // The real API answers a bad key with type invalid_request_error and status 401; the status alone makes the
  // library raise StripeAuthenticationError.
  invalidApiKey: (key: string) =>
    new StripeApiError(401, {
      type: 'invalid_request_error',
      message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(key.length - 12, 0))}${key.slice(-4)}`,
    }),
  unrecognizedUrl: (method: string, path: string) =>
    new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs ${SUPPORT}`,
    }),
  /** The object named in the URL does not exist. */
  noSuchObject: (objectName: string, id: string) => coded(404, 'resource_missing', `No such ${objectName}: '${id}'`, 'id'),
  /** An object named in a parameter does not exist. */
  noSuchParamObject: (objectName: string, id: string, param: string) => coded(400, 'resource_missing', `No such ${objectName}: '${id}'`, param, false),
  missingParam: (param: string) => coded(400, 'parameter_missing', `Missing required param: ${param}.`, param, false),
  unknownParam: (param: string) => coded(400, 'parameter_unknown', `Received unknown parameter: ${param}`, param, false),
  invalidInteger: (param: string, value: string) => coded(400, 'parameter_invalid_integer', `Invalid integer: ${value}`, param, false),
  invalidValue: (param: string, message: string) => new StripeApiError(400, { type: 'invalid_request_error', message, param }, false),
  invalidRequest: (message: string) => new StripeApiError(400, { type: 'invalid_request_error', message }),
  cannotExpand: (path: string) => new StripeApiError(400, { type: 'invalid_request_error', message: `This property cannot be expanded (${path}).` }, false),
  idempotencyParams: (key: string) =>
    new StripeApiError(
      400,
      {
        type: 'idempotency_error',
        message:
          `Keys for idempotent requests can only be used with the same parameters they were first used with. ` +
          `Try using a key other than '${key}' if you meant to execute a different request.`,
      },
      false,
    ),
  idempotencyEndpoint: (key: string, firstPath: string, path: string) =>
    new StripeApiError(
      400,
      {
        type: 'idempotency_error',
        message:
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${path}' vs '${firstPath}'). ` +
          `Try using a key other than '${key}' if you meant to execute a different request.`,
      },
      false,
    ),
};
