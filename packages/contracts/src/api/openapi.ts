/**
 * The OpenAPI 3.1 document of the whole HTTP surface, generated from `OPERATIONS` and the operator
 * API's `ADMIN_OPERATIONS` (on its own port): zod's JSON
 * Schema output for the request and answer schemas, the create-order rules for the Order, and the
 * domain's facts the builder is given (the tracking-number format, the status codes).
 */
import { z } from 'zod';
import type { ReferenceData } from '@parcel-logistics/reference-data';
import type { JsonSchema } from '../validation/checks.ts';
import { ORDER_SCHEMA_NAME, orderSchemas } from '../validation/orderReference.ts';
import { forAccount } from './operation.ts';
import { OPERATIONS, SAMPLE } from './operations.ts';
import type { AdminOperation, ErrorDoc, Example, Operation, ProblemDoc } from './operation.ts';
import { FailureA, FailureB, SUPPLIED } from './schemas.ts';
import {
  ADMIN_SECURITY,
  ADMIN_SERVERS,
  ADMIN_TAG,
  headers,
  idempotencyParameter,
  SECURITY,
  securitySchemes,
  TAGS,
} from './openapiParts.ts';
import { Problem, PROBLEMS, problemType } from '../admin.ts';
import { ADMIN_OPERATIONS } from './adminOperations.ts';

export interface OpenApiInput {
  ref: ReferenceData;
  /** The platform tracking number: its pattern, and the format in words. */
  trackingNumber: { pattern: string; description: string };
  /** Client-visible status codes and their descriptions. */
  statusCodes: Readonly<Record<string, string>>;
  version: string;
}

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

/** Express's `:param` as OpenAPI's `{param}`. */
export const openApiPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const COMPONENTS = '#/components/schemas/';

/**
 * Converts zod schemas one at a time and gathers the named ones (`meta({ id })`) as components:
 * zod puts them under `$defs`, and they move to `components.schemas` with every reference.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
    }) as JsonSchema;
    const { $defs, $schema: _dialect, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) this.add(id, relink(def) as JsonSchema);
    // A named root comes back as a reference to its own entry under $defs.
    return relink(rest) as JsonSchema;
  }

  private add(id: string, def: JsonSchema): void {
    const { id: _id, ...clean } = def;
    const known = this.components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(clean))
      throw new Error(`schema ${id} differs between its uses`);
    this.components[id] = clean;
  }
}

function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', COMPONENTS) : relink(v),
    ]),
  );
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|');

function errorTable(errors: readonly ErrorDoc[]): string {
  if (errors.length === 0) return '';
  const rows = errors.map((e) => `| ${e.status} | ${e.code} | \`${escapeCell(e.message)}\` | ${escapeCell(e.when)} |`);
  return ['**Errors**', '', '| HTTP | code | message | when |', '|---|---|---|---|', ...rows].join('\n');
}

/** The per-number remarks of an answer's `errors` list, as Markdown. */
export function remarksTable(remarks: Operation['remarks']): string {
  if (!remarks?.length) return '';
  return [
    '| remarks | when |',
    '|---|---|',
    ...remarks.map((r) => `| \`${escapeCell(r.remark)}\` | ${escapeCell(r.when)} |`),
  ].join('\n');
}

const exampleMap = <E extends { name: string; summary: string }>(examples: readonly E[], pick: (e: E) => unknown) =>
  Object.fromEntries(
    examples.filter((e) => pick(e) !== undefined).map((e) => [e.name, { summary: e.summary, value: pick(e) }]),
  );

/** The query and path parameters of an operation, each with its examples. */
function parameters(
  op: Pick<Operation, 'query' | 'params'> & {
    examples: readonly Pick<Example, 'name' | 'summary' | 'query' | 'params'>[];
  },
  collector: SchemaCollector,
): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [];
  for (const [where, shape] of [
    ['query', op.query],
    ['path', op.params],
  ] as const) {
    if (!shape) continue;
    const json = collector.convert(shape, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties)) {
      const { description, ...rest } = schema;
      const examples = exampleMap(op.examples, (e) => (where === 'query' ? e.query : e.params)?.[name]);
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(Object.keys(examples).length ? { examples } : {}),
      });
    }
  }
  return list;
}

function responses(op: Operation, collector: SchemaCollector): Record<string, unknown> {
  const mediaTypes = op.produces ?? ['application/json'];
  const plainFailure = op.tag === 'Interface A' ? FailureA : FailureB;
  const success = collector.convert(op.success, 'output');
  const failure = collector.convert(op.failure ?? plainFailure, 'output');
  const authenticated = forAccount(op.security);
  const rateHeaders = authenticated
    ? {
        'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
        'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
        'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
      }
    : {};
  const business = op.errors.some((e) => e.status === 200);
  const okExamples = exampleMap(
    op.examples.filter((e) => (e.status ?? 200) === 200),
    (e) => e.response,
  );
  const result: Record<string, unknown> = {
    '200': {
      description: business
        ? 'Success (code 0), or a business error (a non-zero code, listed under Errors).'
        : 'Success.',
      ...(Object.keys(rateHeaders).length
        ? {
            headers: {
              ...rateHeaders,
              ...(op.method === 'post' && authenticated
                ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
                : {}),
            },
          }
        : {}),
      content: Object.fromEntries(
        mediaTypes.map((type) => [
          type,
          {
            schema: business ? { oneOf: [success, failure] } : success,
            ...(Object.keys(okExamples).length ? { examples: okExamples } : {}),
          },
        ]),
      ),
    },
  };
  const byStatus = new Map<number, ErrorDoc[]>();
  for (const e of op.errors) if (e.status !== 200) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e]);
  for (const [status, errors] of byStatus) {
    // An operation without business errors names its own failure for its system status (readyz's 503).
    const schema = op.failure && !business ? failure : collector.convert(plainFailure, 'output');
    const examples = exampleMap(
      op.examples.filter((e) => e.status === status),
      (e) => e.response,
    );
    result[String(status)] = {
      description: errors.map((e) => `${e.message}: ${e.when}`).join('; '),
      ...(status === 429
        ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' }, ...rateHeaders } }
        : {}),
      content: { 'application/json': { schema, ...(Object.keys(examples).length ? { examples } : {}) } },
    };
  }
  return result;
}

function operationObject(op: Operation, collector: SchemaCollector, ref: ReferenceData): Record<string, unknown> {
  const remarks = remarksTable(op.remarks);
  const description = [
    op.description,
    errorTable(op.errors),
    remarks && `**Per-number remarks** (in the answer’s errors list)\n\n${remarks}`,
    op.appendix?.(ref),
  ];
  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.label ? `${op.label} ${op.summary}` : op.summary,
    description: description.filter(Boolean).join('\n\n'),
    security: SECURITY[op.security],
    parameters: [
      ...parameters(op, collector),
      ...(op.method === 'post' && forAccount(op.security) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...requestBodyOf(op, collector),
    responses: responses(op, collector),
    'x-errors': op.errors,
  };
}

const PROBLEM_JSON = 'application/problem+json';

/** The operator API's answers: its success (none for 204), then a problem document per status it can fail with. */
function adminResponses(op: AdminOperation, collector: SchemaCollector): Record<string, unknown> {
  const examplesOf = (status: number) =>
    exampleMap(
      op.examples.filter((e) => e.status === status && e.response !== undefined),
      (e) => e.response,
    );
  const success = op.success ? collector.convert(op.success, 'output') : undefined;
  const okExamples = examplesOf(op.status);
  const result: Record<string, unknown> = {
    [String(op.status)]: {
      description: op.status === 201 ? 'Made.' : op.status === 204 ? 'Done; no body.' : 'Success.',
      ...(op.location
        ? {
            headers: {
              Location: { description: 'The path of what was made.', schema: { type: 'string' } },
            },
          }
        : {}),
      ...(success
        ? {
            content: {
              'application/json': {
                schema: success,
                ...(Object.keys(okExamples).length ? { examples: okExamples } : {}),
              },
            },
          }
        : {}),
    },
  };
  const problem = collector.convert(Problem, 'output');
  const byStatus = new Map<number, ProblemDoc[]>();
  for (const p of op.problems) {
    const { status } = PROBLEMS[p.problem];
    byStatus.set(status, [...(byStatus.get(status) ?? []), p]);
  }
  for (const [status, problems] of byStatus) {
    const examples = examplesOf(status);
    result[String(status)] = {
      description: problems
        .map((p) => `${PROBLEMS[p.problem].title} (\`${problemType(p.problem)}\`): ${p.when}`)
        .join('; '),
      ...(status === 401
        ? {
            headers: {
              'WWW-Authenticate': { description: '`Bearer realm="parcel-admin"`', schema: { type: 'string' } },
            },
          }
        : status === 429
          ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } }
          : {}),
      content: { [PROBLEM_JSON]: { schema: problem, ...(Object.keys(examples).length ? { examples } : {}) } },
    };
  }
  return result;
}

function problemTable(problems: readonly ProblemDoc[]): string {
  const rows = problems.map((p) => {
    const { status, title } = PROBLEMS[p.problem];
    return `| ${status} | \`${problemType(p.problem)}\` | ${escapeCell(title)} | ${escapeCell(p.when)} |`;
  });
  return ['**Problems**', '', '| HTTP | type | title | when |', '|---|---|---|---|', ...rows].join('\n');
}

/** The JSON request body of an operation that takes one, with its examples' bodies. */
function requestBodyOf(
  op: {
    body?: z.ZodType;
    consumes?: string;
    examples: readonly { name: string; summary: string; body?: unknown }[];
  },
  collector: SchemaCollector,
): { requestBody?: Record<string, unknown> } {
  if (!op.body) return {};
  const examples = exampleMap(op.examples, (e) => e.body);
  return {
    requestBody: {
      required: true,
      content: {
        [op.consumes ?? 'application/json']: {
          schema: collector.convert(op.body, 'input'),
          ...(Object.keys(examples).length ? { examples } : {}),
        },
      },
    },
  };
}

function adminOperationObject(op: AdminOperation, collector: SchemaCollector): Record<string, unknown> {
  return {
    operationId: op.id,
    tags: [ADMIN_TAG],
    summary: op.summary,
    description: [op.description, problemTable(op.problems)].join('\n\n'),
    servers: ADMIN_SERVERS,
    security: ADMIN_SECURITY,
    parameters: parameters(op, collector),
    ...requestBodyOf(op, collector),
    responses: adminResponses(op, collector),
    'x-errors': op.problems.map((p) => ({
      status: PROBLEMS[p.problem].status,
      type: problemType(p.problem),
      title: PROBLEMS[p.problem].title,
      when: p.when,
    })),
  };
}

function overview(input: OpenApiInput): string {
  return [
    'Parcel orders, tracking, shipping labels, locker stations and cancellation, behind two interfaces of one gateway.',
    '',
    '**Answers.** Every answer is JSON in the interface’s envelope. A business error is HTTP 200 with a non-zero code (1, or 1003 ' +
      'for a bad bearer token) and the message listed under each operation; `data` is `[]` unless the operation says otherwise. ' +
      'System errors use HTTP statuses: 400 `Invalid JSON body`, 413 (over 5 MiB), 404 `Api not found` (unknown path or method), ' +
      '409 (an Idempotency-Key in use), 429 (rate limit, with Retry-After), 500 (unexpected). Never an HTML page or a stack trace.',
    '',
    `**Tracking numbers.** ${input.trackingNumber.description}`,
    '',
    '**Time.** Every timestamp is Singapore time (UTC+08:00), ISO 8601 to the second with its offset: `2026-11-22T14:05:09+08:00`.',
    '',
    '**Tenants.** Each account sees only its own parcels: another account’s number answers exactly as an unknown one.',
    '',
    '**Rate limits.** A token bucket per account (default 1000 requests/s, bursts of 2000). Answers to authenticated requests ' +
      'carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; over the limit, 429 with `Retry-After`.',
    '',
    '**Retries.** Every POST of both interfaces takes an `Idempotency-Key` header: the same key and body within 24 h answer ' +
      'the first answer again without doing the work twice.',
    '',
    `**Operator API.** The operations tagged ${ADMIN_TAG} (\`/admin/v1/\`) are served on a port of their own ` +
      '(`PARCEL_ADMIN_PORT`, default 9080, on `PARCEL_ADMIN_HOST`, default 127.0.0.1), never on the client port, and only ' +
      'when `PARCEL_ADMIN_TOKEN` is set. They speak plain JSON with HTTP statuses, and RFC 9457 problem documents ' +
      '(`application/problem+json`) on failure; see docs/operations.md.',
  ].join('\n');
}

function statusCodeSchema(input: OpenApiInput): JsonSchema {
  const rows = Object.entries(input.statusCodes).map(([code, desc]) => `\`${code}\` ${desc}`);
  return {
    type: 'string',
    description: `A status code; branch on it, never on its description. The platform’s codes: ${rows.join('; ')}. A carrier’s code that has no mapping is shown as the carrier sent it.`,
    examples: ['DR_DR'],
  };
}

export function buildOpenApiDocument(input: OpenApiInput): OpenApiDocument {
  const collector = new SchemaCollector();
  const paths: OpenApiDocument['paths'] = {};
  for (const op of OPERATIONS) {
    const path = openApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: operationObject(op, collector, input.ref) };
  }
  for (const op of ADMIN_OPERATIONS) {
    const path = openApiPath(op.path);
    paths[path] = { ...paths[path], [op.method]: adminOperationObject(op, collector) };
  }
  const supplied: Record<string, JsonSchema> = {
    ...orderSchemas(input.ref),
    [SUPPLIED.trackingNumber]: {
      type: 'string',
      pattern: input.trackingNumber.pattern,
      description: input.trackingNumber.description,
      examples: [SAMPLE.trackingNumber],
    },
    [SUPPLIED.statusCode]: statusCodeSchema(input),
  };
  for (const name of [ORDER_SCHEMA_NAME, SUPPLIED.trackingNumber, SUPPLIED.statusCode]) {
    if (!(name in collector.components)) throw new Error(`no operation uses ${name}`);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parcel Logistics Service',
      version: input.version,
      description: overview(input),
    },
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
    tags: TAGS,
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries({ ...collector.components, ...supplied }).sort(([a], [b]) => a.localeCompare(b)),
      ),
      securitySchemes,
      headers,
      parameters: { IdempotencyKey: idempotencyParameter },
    },
  };
}
