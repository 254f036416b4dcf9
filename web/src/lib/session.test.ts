// Leaving for the login page happens once per page, however many callers ask (a sign-out, the 401s of requests
// still in flight): a second navigation would abort the first.
import { jest } from '@jest/globals';
import { AUTH_COOKIE, leaveForLogin } from './session';

test('the first caller navigates; later ones only end the session', () => {
  const location = { assign: jest.fn(), replace: jest.fn() };
  const cookies: string[] = [];
  Object.assign(globalThis, {
    window: { location },
    document: {
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        cookies.push(value);
      },
    },
  });
  try {
    leaveForLogin('/ru/app/auth/login', { replace: true });
    leaveForLogin('/ru/app/auth/login', { replace: false });
    expect(location.replace).toHaveBeenCalledTimes(1);
    expect(location.replace).toHaveBeenCalledWith('/ru/app/auth/login');
    expect(location.assign).not.toHaveBeenCalled();
    expect(cookies.filter((cookie) => cookie.startsWith(`${AUTH_COOKIE}=`))).toHaveLength(2);
  } finally {
    Reflect.deleteProperty(globalThis, 'window');
    Reflect.deleteProperty(globalThis, 'document');
  }
});
