import { linkParts } from '../stream-display';

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
