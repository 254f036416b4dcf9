import { ApiError, type ApiErrorKey } from '../../../api/client';

/** The catalogue key of a failed call; anything that is not an API answer is our own fault. */
export const errorKeyOf = (error: unknown): ApiErrorKey => (error instanceof ApiError ? error.key : 'internal error');
