// The add form promises what the Channels page will show of a key: the last four characters only for keys at least as
// long as the API's keyHint needs; a short key showed as bare dots while the form promised its last four.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_HINT_MIN_LENGTH as apiMinLength, keyHintOf } from '@loopcast/core/channels/channel';
import { KEY_HINT_MIN_LENGTH } from './key-hint';

test("the form's number is the API's", () => {
  expect(KEY_HINT_MIN_LENGTH).toBe(apiMinLength);
  expect(keyHintOf('x'.repeat(KEY_HINT_MIN_LENGTH - 2) + 'Z')).toBe('••••');
  expect(keyHintOf('x'.repeat(KEY_HINT_MIN_LENGTH - 4) + 'WXYZ')).toBe('••••WXYZ');
});

test.each(['en', 'es', 'hi', 'ru', 'ua'])('%s: the key help names the length below which nothing of the key is shown', (code) => {
  const texts = JSON.parse(readFileSync(join(import.meta.dirname, `../../i18n/locales/${code}.json`), 'utf8')) as { channels: { rtmp: { keyHelp: string } } };
  expect(texts.channels.rtmp.keyHelp).toContain('{{min}}');
});
