// Reads one endpoint's decoded form parameters the way Stripe validates them: an unknown parameter, a missing
// required one or a malformed value is a 400 naming the parameter in bracket notation (`line_items[0][price]`).
import { stripeErrors } from './errors';
import type { FormNode, FormTree } from './form';

export class Params {
  private constructor(
    private readonly tree: FormTree,
    private readonly prefix: string,
  ) {}

  /** Rejects any parameter not in `known` (`expand` is always allowed at the top level). */
  static of(tree: FormTree, known: readonly string[]): Params {
    return new Params(tree, '').only(['expand', ...known]);
  }

  private only(known: readonly string[]): Params {
    for (const key of Object.keys(this.tree)) if (!known.includes(key)) throw stripeErrors.unknownParam(this.name(key));
    return this;
  }

  private name(key: string): string {
    return this.prefix === '' ? key : `${this.prefix}[${key}]`;
  }

  string(key: string): string | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw stripeErrors.invalidValue(this.name(key), `Invalid string: ${this.name(key)}`);
    return value;
  }

  requiredString(key: string): string {
    const value = this.string(key);
    if (value === undefined || value === '') throw stripeErrors.missingParam(this.name(key));
    return value;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      throw stripeErrors.invalidValue(this.name(key), `Invalid ${this.name(key)}: must be one of ${values.join(', ')}`);
    }
    return value as T;
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw stripeErrors.invalidValue(this.name(key), `Invalid boolean: ${value}`);
    return value === 'true';
  }

  integer(key: string): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) throw stripeErrors.invalidInteger(this.name(key), value);
    return Number(value);
  }

  /** Metadata: string values; an empty string removes a key (the caller merges), `metadata=` clears all. */
  metadata(key = 'metadata'): Record<string, string> | 'clear' | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    if (value === '') return 'clear';
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw stripeErrors.invalidValue(this.name(key), `Invalid hash: ${this.name(key)}`);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') throw stripeErrors.invalidValue(`${this.name(key)}[${k}]`, `Invalid string: ${this.name(key)}[${k}]`);
      out[k] = v;
    }
    return out;
  }

  /** A nested hash, itself checked for unknown keys. */
  hash(key: string, known: readonly string[]): Params | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw stripeErrors.invalidValue(this.name(key), `Invalid hash: ${this.name(key)}`);
    }
    return new Params(value, this.name(key)).only(known);
  }

  /** A hash that an empty value unsets (Stripe's "emptyable" parameters): null for `key=`. */
  emptyableHash(key: string, known: readonly string[]): Params | null | undefined {
    return this.tree[key] === '' ? null : this.hash(key, known);
  }

  /** An array of hashes (`line_items[0][price]`). */
  hashes(key: string, known: readonly string[]): Params[] | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw stripeErrors.invalidValue(this.name(key), `Invalid array: ${this.name(key)}`);
    return value.map((item: FormNode, i) => {
      if (typeof item !== 'object' || Array.isArray(item)) {
        throw stripeErrors.invalidValue(`${this.name(key)}[${i}]`, `Invalid hash: ${this.name(key)}[${i}]`);
      }
      return new Params(item, `${this.name(key)}[${i}]`).only(known);
    });
  }

  /** An array of strings (`lookup_keys[]=a`, `expand[0]=b`). */
  strings(key: string): string[] | undefined {
    const value = this.tree[key];
    if (value === undefined) return undefined;
    const list = Array.isArray(value) ? value : [value];
    return list.map((item, i) => {
      if (typeof item !== 'string') throw stripeErrors.invalidValue(`${this.name(key)}[${i}]`, `Invalid string: ${this.name(key)}[${i}]`);
      return item;
    });
  }

  expand(): string[] {
    return this.strings('expand') ?? [];
  }
}
