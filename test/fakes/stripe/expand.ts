// `expand[]=customer`, `expand[]=latest_invoice`, `expand[]=data.customer` (lists), `expand[]=line_items`
// (checkout sessions): ids in the answer are replaced by the objects they name, on a copy of the stored object.
import { stripeErrors } from './errors';
import { listOf, type LineItem } from './objects';
import type { StripeState } from './state';

export function expand<T extends object>(answer: T, paths: string[], state: StripeState): T {
  const copy = structuredClone(answer);
  for (const path of paths) expandPath(copy, path.split('.'), path, state);
  return copy;
}

/** Fields that hold the id of another object (Stripe's expandable fields among those the fake models). */
const REFERENCES = new Set(['customer', 'product', 'price', 'latest_invoice', 'subscription', 'invoice', 'line_items']);

function expandPath(node: unknown, segments: string[], path: string, state: StripeState): void {
  if (Array.isArray(node)) {
    for (const item of node) expandPath(item, segments, path, state);
    return;
  }
  const [head, ...rest] = segments;
  if (head === undefined || typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  const value = record[head];
  const passesThrough = rest.length > 0 && typeof value === 'object' && value !== null;
  if (!passesThrough) {
    if (!REFERENCES.has(head) || !(head in record || head === 'line_items')) throw stripeErrors.cannotExpand(path);
    if (head === 'line_items' && record.object === 'checkout.session') {
      const items: LineItem[] = state.checkoutLineItems.get(String(record.id)) ?? [];
      record.line_items = listOf(items, `/v1/checkout/sessions/${String(record.id)}/line_items`);
    } else if (typeof value === 'string') {
      const found = state.find(value);
      if (!found) throw stripeErrors.cannotExpand(path);
      record[head] = structuredClone(found);
    }
  }
  if (rest.length > 0) expandPath(record[head], rest, path, state);
}
