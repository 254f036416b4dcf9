// The price table as Markdown (`npm run costs -- --prices`): docs/costs.md carries exactly this text, and a test
// checks that it still does.
import { PRICES_READ_ON, prices, type PriceFigure } from './prices';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function priceTableText(): string {
  const rows = Object.entries(prices as Record<string, PriceFigure>).map(
    ([id, figure]) =>
      `| \`${id}\` | ${figure.value} | ${cell(figure.unit)} | ${cell(figure.what)}${figure.assumed ? ' **(assumed)**' : ''} | ${cell(figure.source)} | ${cell(figure.readFrom)} | ${cell(figure.asOf)} |`,
  );
  return [
    `Typed in on ${PRICES_READ_ON}; "as of" is the date of the page read.`,
    '',
    '| figure | value | unit | what | source | read from | as of |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
