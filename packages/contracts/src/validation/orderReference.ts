/**
 * The create-order rules as the API reference shows them: JSON Schemas of the Order and its nested
 * objects, and the table of checks in order with their messages. Both are read off the rules that
 * validate (createOrder.ts), with the reference data that completes them (countries, codes).
 */
import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { JsonSchema } from './checks.ts';
import {
  itemRules,
  lockerMessages,
  lockerRules,
  ORDER_PARTS,
  orderMessages,
  orderRules,
  rowMessages,
} from './createOrder.ts';
import type { State } from './createOrder.ts';
import { describe } from './rules.ts';
import type { Condition, Messages, Rule } from './rules.ts';

type OrderRule = Rule<State>;

export const ORDER_SCHEMA_NAME = 'Order';

const ORDER_DESCRIPTION =
  'Checked field by field in the order listed here, then the item rows in order; the first failure is the ' +
  'answer’s message, with `data: []`. An optional field sent as null, an empty string or white space only ' +
  'counts as not sent. A numeric field takes a JSON number or a string holding one (`-?digits[.digits]`). ' +
  'Strings are stored as sent, without trimming; lengths count Unicode code points; control characters are ' +
  'refused, except tab and line breaks in addresses and instruction. Unknown fields are ignored and never stored.';

function schemaOf(rule: OrderRule, ref: ReferenceData): JsonSchema {
  if (rule.schema) return typeof rule.schema === 'function' ? rule.schema(ref) : rule.schema;
  const own = (rule.check as { schema?: JsonSchema }).schema;
  if (!own) throw new Error(`create-order rule ${rule.field} has no schema for the reference`);
  return own;
}

/** When the field must be sent, in words; undefined when it never must. */
function requiredWhen(rule: OrderRule, ref: ReferenceData): string | undefined {
  const conditions = [rule.required === true ? rule.when : rule.required, rule.absent?.when].filter(
    (c): c is Condition<State> => typeof c === 'object',
  );
  if (rule.required === true && !rule.when) return 'always';
  return conditions.length ? conditions.map((c) => `when ${describe(c.text, ref)}`).join('; ') : undefined;
}

function fieldDescription(rule: OrderRule, ref: ReferenceData): string | undefined {
  const parts = [rule.doc ? describe(rule.doc, ref) : undefined];
  const when = requiredWhen(rule, ref);
  if (when && when !== 'always') parts.push(`Required ${when}.`);
  if (rule.when && rule.required !== true)
    parts.push(`Read only when ${describe(rule.when.text, ref)}; ignored otherwise.`);
  if (rule.when && rule.required === true) parts.push(`Ignored unless ${describe(rule.when.text, ref)}.`);
  const text = parts.filter(Boolean).join(' ');
  return text || undefined;
}

function objectSchema(rules: readonly OrderRule[], ref: ReferenceData, description: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const conditional: JsonSchema[] = [];
  const requireIf = (condition: Condition<State>, field: string) => {
    if (!condition.schema) throw new Error(`create-order rule ${field}: its condition has no schema`);
    conditional.push({ if: condition.schema(ref), then: { required: [field] } });
  };
  for (const rule of rules) {
    const doc = fieldDescription(rule, ref);
    properties[rule.field] = { ...schemaOf(rule, ref), ...(doc ? { description: doc } : {}) };
    if (rule.required === true && !rule.when) required.push(rule.field);
    else if (rule.required === true && rule.when) requireIf(rule.when, rule.field);
    else if (typeof rule.required === 'object') requireIf(rule.required, rule.field);
    if (rule.absent) requireIf(rule.absent.when, rule.field);
  }
  return { type: 'object', description, properties, required, ...(conditional.length ? { allOf: conditional } : {}) };
}

/** The Order and its nested objects, as components of the OpenAPI document (they refer to each other by name). */
export function orderSchemas(ref: ReferenceData): Record<string, JsonSchema> {
  return {
    [ORDER_SCHEMA_NAME]: objectSchema(orderRules, ref, ORDER_DESCRIPTION),
    [ORDER_PARTS.item]: objectSchema(itemRules, ref, 'One item row of an Order; rows are counted from 1 in messages.'),
    [ORDER_PARTS.lockerStation]: objectSchema(
      lockerRules,
      ref,
      'The locker an Order with locker_type A goes to: every field is required.',
    ),
  };
}

/** A one-line summary of what a schema accepts, for the rules table. */
function accepts(schema: JsonSchema): string {
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if (schema.enum) return `one of ${(schema.enum as string[]).join(', ')}`;
  const type = schema.type;
  if (Array.isArray(type)) {
    const range = [schema.minimum, schema.maximum].every((b) => b !== undefined)
      ? ` ${schema.minimum} to ${schema.maximum}`
      : ` ≥ ${schema.minimum}`;
    return `number${range} (or a numeric string)`;
  }
  if (type === 'array') return `array of ${schema.minItems}-${schema.maxItems} ${accepts(schema.items as JsonSchema)}`;
  const length =
    schema.minLength !== undefined
      ? `, ${schema.minLength}-${schema.maxLength} characters`
      : schema.maxLength !== undefined
        ? `, at most ${schema.maxLength} characters`
        : '';
  const pattern =
    typeof schema.pattern === 'string' && !schema.pattern.startsWith('^[^') ? `, \`${schema.pattern}\`` : '';
  return `string${length}${pattern}`;
}

function messagesOf(rule: OrderRule, msg: Messages): string[] {
  const list: string[] = [];
  if (rule.absent) list.push(rule.absent.message);
  if (rule.required) list.push(msg.require(rule.field));
  list.push(rule.invalid ?? msg.invalid(rule.field));
  list.push(...(rule.messages ?? []));
  return [...new Set(list)];
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

function rulesTable(
  rules: readonly OrderRule[],
  ref: ReferenceData,
  msg: Messages,
  name: (field: string) => string,
): string[] {
  return rules.map((rule, i) => {
    const when = requiredWhen(rule, ref) ?? 'no';
    const cells = [
      String(i + 1),
      `\`${name(rule.field)}\``,
      when,
      accepts(schemaOf(rule, ref)),
      messagesOf(rule, msg)
        .map((m) => `\`${m}\``)
        .join(', '),
    ];
    return `| ${cells.map(escapeCell).join(' | ')} |`;
  });
}

/** The checks of create-order in the order they run, with every message each can answer, as Markdown. */
export function orderRulesMarkdown(ref: ReferenceData): string {
  const header = ['| # | field | required | accepts | messages |', '|---|---|---|---|---|'];
  return [
    'Order fields:',
    '',
    ...header,
    ...rulesTable(orderRules, ref, orderMessages, (f) => f),
    '',
    'locker_station fields (locker_type A):',
    '',
    ...header,
    ...rulesTable(lockerRules, ref, lockerMessages, (f) => `locker_station.${f}`),
    '',
    'Then each item row, counted from 1:',
    '',
    ...header,
    ...rulesTable(itemRules, ref, rowMessages('<row>'), (f) => `item[].${f}`),
  ].join('\n');
}
