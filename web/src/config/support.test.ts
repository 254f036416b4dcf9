// Support contacts come from the build's configuration only: unset ones are absent, never a placeholder, and a
// value that could not reach anyone fails the build.
import { hasSupportChannel, supportChannelsFrom, supportContactHref } from './support';

test('set channels are kept, unset and blank ones are absent', () => {
  expect(
    supportChannelsFrom({ VITE_SUPPORT_EMAIL: ' help@loopcast.tv ', VITE_SUPPORT_TELEGRAM_URL: 'https://t.me/loopcast_help', VITE_SUPPORT_CHAT_URL: '  ' }),
  ).toEqual({
    email: 'help@loopcast.tv',
    chatUrl: undefined,
    telegramUrl: 'https://t.me/loopcast_help',
  });
  expect(supportChannelsFrom({})).toEqual({ email: undefined, chatUrl: undefined, telegramUrl: undefined });
});

test.each([
  ['VITE_SUPPORT_EMAIL', 'support@loopcast.example.com', /placeholder/],
  ['VITE_SUPPORT_EMAIL', 'help@team.test', /placeholder/],
  ['VITE_SUPPORT_EMAIL', 'not an address', /not a usable/],
  ['VITE_SUPPORT_CHAT_URL', 'https://chat.example.org/room', /placeholder/],
  ['VITE_SUPPORT_CHAT_URL', 'http://chat.loopcast.tv', /not a usable/],
  ['VITE_SUPPORT_TELEGRAM_URL', 't.me/loopcast', /not a usable/],
])('%s=%s fails the build', (name, value, reason) => {
  expect(() => supportChannelsFrom({ [name]: value })).toThrow(reason);
});

test('"contact us" goes to the e-mail, else the chat, else Telegram, else nowhere', () => {
  expect(supportContactHref({ email: 'help@loopcast.tv', chatUrl: 'https://chat.loopcast.tv' })).toBe('mailto:help@loopcast.tv');
  expect(supportContactHref({ chatUrl: 'https://chat.loopcast.tv', telegramUrl: 'https://t.me/x' })).toBe('https://chat.loopcast.tv');
  expect(supportContactHref({ telegramUrl: 'https://t.me/x' })).toBe('https://t.me/x');
  expect(supportContactHref({})).toBeUndefined();
  expect(hasSupportChannel({})).toBe(false);
});

test('jest has no Vite env: this build has no channel', () => {
  expect(hasSupportChannel()).toBe(false);
});
