import { Fragment, type ReactNode } from 'react';

/** A translated sentence whose `{{name}}` placeholders become elements (links inside a label, say). */
export function LinkedText({ text, parts }: { text: string; parts: Record<string, ReactNode> }) {
  const pieces = text.split(/\{\{\s*(\w+)\s*\}\}/);
  return (
    <>
      {pieces.map((piece, index) => (
        <Fragment key={index}>{index % 2 === 1 ? (parts[piece] ?? piece) : piece}</Fragment>
      ))}
    </>
  );
}
