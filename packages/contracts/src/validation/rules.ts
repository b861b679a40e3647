/**
 * A tiny ordered-rule engine: the first failing rule's message wins. Each rule also says, in data,
 * what it accepts and when it applies, so the API reference is generated from the rules themselves.
 */
import type { ReferenceData } from '@parcel-logistics/reference-data';
import { isBlank, own } from './checks.ts';
import type { JsonSchema } from './checks.ts';

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

/** Words for the reference, fixed or read from the reference data (codes, names, countries). */
export type Described = string | ((ref: ReferenceData) => string);

export const describe = (text: Described, ref: ReferenceData): string => (typeof text === 'string' ? text : text(ref));

/** When a rule applies or a field is required: decided on the state, and described for the reference. */
export interface Condition<S> {
  holds(s: S): boolean;
  /** In words, completing "when …". */
  text: Described;
  /** The JSON Schema `if` clause that holds exactly when this does, where one can be written. */
  schema?: (ref: ReferenceData) => JsonSchema;
}

export interface Rule<S> {
  field: string;
  /**
   * Checks a given value: returns the value to store, `undefined` for the rule's invalid
   * message, or `fail(message)` for another message.
   */
  check: (raw: unknown, s: S) => unknown;
  /** What the rule accepts, for the reference; default: the checker's own schema. */
  schema?: JsonSchema | ((ref: ReferenceData) => JsonSchema);
  /** What the schema cannot say, in words, for the reference. */
  doc?: Described;
  /** Not given is a `require` failure. Default: optional. */
  required?: boolean | Condition<S>;
  /** The rule applies only when this holds; otherwise the field is ignored (not stored). */
  when?: Condition<S>;
  /** Further values that count as not given (an empty array). */
  empty?: (raw: unknown) => boolean;
  /** Another message than `require` when the field is not given and this holds, decided before `required`. */
  absent?: { when: Condition<S>; message: string };
  /** Message override for an invalid value. */
  invalid?: string;
  /** Further messages `check` may fail with (placeholders in angle brackets), for the reference. */
  messages?: readonly string[];
}

const isRequired = <S>(rule: Rule<S>, s: S): boolean =>
  typeof rule.required === 'object' ? rule.required.holds(s) : rule.required === true;

/** Runs `rules` in order over `source`, storing accepted values in `target`; returns the first failure. */
export function runRules<S>(
  rules: readonly Rule<S>[],
  source: object,
  s: S,
  msg: Messages,
  target: Record<string, unknown>,
): string | undefined {
  for (const rule of rules) {
    if (rule.when && !rule.when.holds(s)) continue;
    const raw = own(source, rule.field);
    if (isBlank(raw) || rule.empty?.(raw)) {
      if (rule.absent?.when.holds(s)) return rule.absent.message;
      if (isRequired(rule, s)) return msg.require(rule.field);
      continue;
    }
    const value = rule.check(raw, s);
    if (value === undefined) return rule.invalid ?? msg.invalid(rule.field);
    if (isFailure(value)) return value[FAIL];
    target[rule.field] = value;
  }
  return undefined;
}
