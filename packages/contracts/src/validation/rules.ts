/** A tiny ordered-rule engine: the first failing rule's message wins. */
import { isBlank, own } from './checks.ts';

const FAIL = Symbol('fail');

/** A failure with its own message (spec-named texts, nested object messages). */
export interface Failure {
  readonly [FAIL]: string;
}

export const fail = (message: string): Failure => ({ [FAIL]: message });

const isFailure = (v: unknown): v is Failure => typeof v === 'object' && v !== null && FAIL in v;

export interface Messages {
  require(field: string): string;
  invalid(field: string): string;
}

export interface Rule<S> {
  field: string;
  /**
   * Checks a given value: returns the value to store, `undefined` for the rule's invalid
   * message, or `fail(message)` for another message.
   */
  check: (raw: unknown, s: S) => unknown;
  /** Not given is a `require` failure. Default: optional. */
  required?: boolean | ((s: S) => boolean);
  /** The rule applies only when this holds; otherwise the field is ignored (not stored). */
  when?: (s: S) => boolean;
  /** Further values that count as not given (an empty array, a non-object). */
  empty?: (raw: unknown) => boolean;
  /** Message when the field is not given, decided before `required` (pairings). */
  absent?: (s: S) => string | undefined;
  /** Message override for an invalid value. */
  invalid?: string;
  /** Store the value in the target (default true). */
  keep?: boolean;
}

/** Runs `rules` in order over `source`, storing accepted values in `target`; returns the first failure. */
export function runRules<S>(rules: readonly Rule<S>[], source: object, s: S, msg: Messages, target: Record<string, unknown>): string | undefined {
  for (const rule of rules) {
    if (rule.when && !rule.when(s)) continue;
    const raw = own(source, rule.field);
    if (isBlank(raw) || rule.empty?.(raw)) {
      const required = typeof rule.required === 'function' ? rule.required(s) : rule.required === true;
      const message = rule.absent?.(s) ?? (required ? msg.require(rule.field) : undefined);
      if (message !== undefined) return message;
      continue;
    }
    const value = rule.check(raw, s);
    if (value === undefined) return rule.invalid ?? msg.invalid(rule.field);
    if (isFailure(value)) return value[FAIL];
    if (rule.keep !== false) target[rule.field] = value;
  }
  return undefined;
}
