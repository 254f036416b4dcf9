import { linkParts } from './linked-text';

describe('links in a message', () => {
  test("web addresses become links, without the sentence's punctuation", () => {
    expect(linkParts('Enable it at https://www.youtube.com/features (it can take up to 24 hours), then try again')).toEqual([
      { text: 'Enable it at ' },
      { href: 'https://www.youtube.com/features' },
      { text: ' (it can take up to 24 hours), then try again' },
    ]);
    expect(linkParts('Go to https://www.youtube.com/features.')).toEqual([{ text: 'Go to ' }, { href: 'https://www.youtube.com/features' }, { text: '.' }]);
    expect(linkParts('https://a.example/x and https://b.example/y')).toEqual([
      { href: 'https://a.example/x' },
      { text: ' and ' },
      { href: 'https://b.example/y' },
    ]);
    expect(linkParts('No address here')).toEqual([{ text: 'No address here' }]);
    expect(linkParts('')).toEqual([]);
  });
});
