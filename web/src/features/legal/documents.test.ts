// The legal texts name exactly the support channels the build has, and nothing else.
import { legalDocument, type LegalPath } from './documents.server';

const pages: LegalPath[] = ['/terms', '/offer', '/refund-policy', '/privacy'];
const text = (page: LegalPath, channels: Parameters<typeof legalDocument>[1]) => {
  const document = legalDocument(page, channels);
  return [document.intro, ...document.sections.flatMap((section) => [section.heading, ...section.paragraphs])].join('\n');
};

test('with all three channels, contact sentences list them and the refund request goes to the e-mail', () => {
  const channels = { email: 'help@loopcast.tv', chatUrl: 'https://chat.loopcast.tv', telegramUrl: 'https://t.me/loopcast_help' };
  for (const page of pages) {
    expect(text(page, channels)).toContain(
      'You can reach us by e-mail at help@loopcast.tv, in our live chat at https://chat.loopcast.tv or on Telegram at https://t.me/loopcast_help.',
    );
  }
  expect(text('/refund-policy', channels)).toContain('Send the request to help@loopcast.tv from the e-mail address of your account.');
  expect(text('/offer', channels)).toContain('answers support requests by e-mail, chat or Telegram.');
});

test('with Telegram only, nothing mentions e-mail support or a chat', () => {
  const channels = { telegramUrl: 'https://t.me/loopcast_help' };
  const offer = text('/offer', channels);
  expect(offer).toContain('You can reach us on Telegram at https://t.me/loopcast_help.');
  expect(offer).toContain('answers support requests by Telegram.');
  expect(text('/refund-policy', channels)).toContain('Send the request to our support (see Contact), naming the e-mail address of your account.');
});

test('with none, no address appears at all', () => {
  for (const page of pages) {
    const document = text(page, {});
    expect(document).not.toMatch(/@|https?:\/\/(?!www\.)|example/);
    expect(document).not.toContain('by e-mail, chat or Telegram');
  }
  expect(text('/terms', {})).toContain('The support contacts of this Loopcast installation have not been published yet.');
});
