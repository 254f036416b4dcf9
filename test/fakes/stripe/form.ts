// Stripe's request encoding: application/x-www-form-urlencoded (or the query string for GET and DELETE) with bracket
// notation for nesting: `metadata[plan]=pro`, `line_items[0][price]=price_123`, `expand[]=customer`.
export type FormNode = string | FormNode[] | FormTree;
export interface FormTree {
  [key: string]: FormNode;
}

/** Hashes whose keys are the user's own (metadata) stay hashes even when their keys look like indexes. */
const FREE_FORM_KEYS = new Set(['metadata']);

export function decodeForm(encoded: string): FormTree {
  const root: FormTree = {};
  for (const [key, value] of new URLSearchParams(encoded)) insert(root, keyPath(key), value);
  return arraysFromIndexes(root, '') as FormTree;
}

function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const [, head = key, brackets = ''] = match;
  return [head, ...[...brackets.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')];
}

function insert(tree: FormTree, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  // `a[]` appends: the next free index.
  const key = head === '' ? String(Object.keys(tree).length) : head;
  if (rest.length === 0) {
    tree[key] = value;
    return;
  }
  const existing = tree[key];
  const child: FormTree = typeof existing === 'object' && !Array.isArray(existing) ? existing : {};
  tree[key] = child;
  insert(child, rest, value);
}

function arraysFromIndexes(node: FormNode, key: string): FormNode {
  if (typeof node === 'string' || Array.isArray(node)) return node;
  const keys = Object.keys(node);
  const converted: FormTree = {};
  for (const k of keys) converted[k] = arraysFromIndexes(node[k] as FormNode, k);
  const isList = keys.length > 0 && !FREE_FORM_KEYS.has(key) && keys.every((k, i) => k === String(i));
  return isList ? keys.map((k) => converted[k] as FormNode) : converted;
}
