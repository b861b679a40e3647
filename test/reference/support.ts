/**
 * The OpenAPI document as an independent judge sees it: ajv (JSON Schema 2020-12) compiles the
 * schemas the document gives for each operation's answers; nothing of the project's own validation
 * takes part.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

export type OpenApi = {
  paths: Record<string, Record<string, OperationObject>>;
  components: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

export interface OperationObject {
  operationId: string;
  tags: string[];
  security: Record<string, string[]>[];
  /** The operator API's: its own port. */
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  parameters: ({ name: string; in: string; required: boolean } | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    { content?: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> }
  >;
  /** An envelope error of the client interfaces (code, message), or a problem of the operator API (type, title). */
  'x-errors': { status: number; code?: number; message?: string; type?: string; title?: string; when: string }[];
}

/** A JSON Pointer into the document, as a URI fragment. */
const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');

export function judge(document: OpenApi) {
  // strict off: the document also holds OpenAPI keywords (example, discriminator) that are not JSON Schema's.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // The one format the document uses; canonical Base64 is what decodes and encodes back to itself.
  ajv.addFormat('base64', {
    type: 'string',
    validate: (s: string) => Buffer.from(s, 'base64').toString('base64') === s,
  });
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();
  const at = (...segments: string[]): ValidateFunction => {
    const ref = `openapi.json#/${pointer(...segments)}`;
    const known = compiled.get(ref);
    if (known) return known;
    const validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
    return validate;
  };
  const check = (validate: ValidateFunction, value: unknown): string[] =>
    validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  return {
    /** What is wrong with an answer of `path`/`method` with this status and media type (empty: it conforms). */
    answer(path: string, method: string, status: number, mediaType: string, body: unknown): string[] {
      const responses = document.paths[path]?.[method]?.responses;
      if (!responses?.[String(status)]?.content?.[mediaType])
        return [`the document has no ${status} ${mediaType} answer for ${method} ${path}`];
      return check(at('paths', path, method, 'responses', String(status), 'content', mediaType, 'schema'), body);
    },
    /** What is wrong with a request body of `path`/`method`, judged by its one media type's schema. */
    request(path: string, method: string, body: unknown): string[] {
      const content = document.paths[path]?.[method]?.requestBody?.content ?? {};
      const mediaType = Object.keys(content)[0] ?? 'application/json';
      return check(at('paths', path, method, 'requestBody', 'content', mediaType, 'schema'), body);
    },
    schema(name: string, value: unknown): string[] {
      return check(at('components', 'schemas', name), value);
    },
  };
}

export type Judge = ReturnType<typeof judge>;
