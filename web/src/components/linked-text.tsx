// Messages whose web addresses must be real links: catalogue texts such as 'livestreaming not enabled', which names
// https://www.youtube.com/features, shown on the Channels page and on a stream's card.

export type TextPart = { text: string } | { href: string };

const address = /https:\/\/[^\s()<>"]+/g;

/** A message cut around its https addresses, each to be shown as a link; a sentence's final punctuation after an
 * address is not part of it. Pure. */
export function linkParts(message: string): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of message.matchAll(address)) {
    const href = match[0].replace(/[.,;:!?]+$/, '');
    if (match.index > from) parts.push({ text: message.slice(from, match.index) });
    parts.push({ href });
    from = match.index + href.length;
  }
  if (from < message.length) parts.push({ text: message.slice(from) });
  return parts;
}

/** A message with its web addresses as links (opened in a new tab: the page keeps its live state). */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {linkParts(text).map((part, index) =>
        'href' in part ? (
          <a key={index} href={part.href} target="_blank" rel="noreferrer">
            {part.href}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
