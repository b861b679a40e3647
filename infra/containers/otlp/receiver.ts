/**
 * The OTLP/HTTP receiver that stands in for Jaeger in the compose stack on machines without an
 * image registry (infra/containers/compose.local.yml). It keeps what the services export, in
 * memory, so that a test can read it back:
 *
 *   POST :4318/v1/traces   OTLP/HTTP with a JSON body (ExportTraceServiceRequest), as
 *                          packages/telemetry sends it (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
 *   GET  :16686/api/spans  every span received: [{ service, traceId, spanId, parentSpanId, name, kind,
 *                          links: [{ traceId, spanId }] }]; ?traceId=<hex>: the spans of that trace
 *                          and those linked to one of its spans (a consumer of a page of events
 *                          links to the traces of its events instead of joining one)
 *   GET  :4318/healthz and :16686/healthz   200 once both ports listen
 *
 * It accepts JSON only (protobuf bodies get 415) and keeps at most MAX_SPANS spans, dropping the
 * oldest. No dependencies: it runs on the image's Node 24 as it is (type stripping).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const OTLP_PORT = Number(process.env.OTLP_HTTP_PORT ?? 4318);
const QUERY_PORT = Number(process.env.QUERY_PORT ?? 16686);
const MAX_SPANS = Number(process.env.MAX_SPANS ?? 200_000);
const MAX_BODY = 16 * 1024 * 1024;

/** A span as `/api/spans` answers it (test/composeRun.int.spec.ts reads them). */
export interface Span {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  links: { traceId: string; spanId: string }[];
}
interface OtlpAttribute {
  key?: string;
  value?: { stringValue?: string };
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId?: string;
        spanId?: string;
        parentSpanId?: string;
        name?: string;
        kind?: number;
        links?: { traceId?: string; spanId?: string }[];
      }[];
    }[];
  }[];
}

const spans: Span[] = [];
let received = 0;

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function keep(request: OtlpRequest): number {
  let count = 0;
  for (const rs of request.resourceSpans ?? []) {
    const service =
      rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value?.stringValue ?? 'unknown_service';
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) {
        spans.push({
          service,
          traceId: s.traceId ?? '',
          spanId: s.spanId ?? '',
          parentSpanId: s.parentSpanId ?? '',
          name: s.name ?? '',
          kind: s.kind ?? 0,
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId ?? '', spanId: l.spanId ?? '' })),
        });
        count++;
      }
  }
  if (spans.length > MAX_SPANS) spans.splice(0, spans.length - MAX_SPANS);
  received += count;
  return count;
}

const otlp = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (req.method === 'GET' && url.pathname === '/healthz') return reply(res, 200, { ok: true });
  if (req.method !== 'POST' || url.pathname !== '/v1/traces') return reply(res, 404, { error: 'not found' });
  if (!String(req.headers['content-type'] ?? '').includes('json'))
    return reply(res, 415, { error: 'OTLP/HTTP JSON only (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)' });
  bodyOf(req)
    .then((text) => {
      keep(JSON.parse(text) as OtlpRequest);
      reply(res, 200, {});
    })
    .catch((error: unknown) => reply(res, 400, { error: String(error) }));
});

const query = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (req.method === 'GET' && url.pathname === '/healthz') return reply(res, 200, { ok: true });
  if (req.method === 'GET' && url.pathname === '/api/spans') {
    const traceId = url.searchParams.get('traceId');
    const inTrace = (s: Span) => s.traceId === traceId || s.links.some((l) => l.traceId === traceId);
    return reply(res, 200, { received, spans: traceId ? spans.filter(inTrace) : spans });
  }
  reply(res, 404, { error: 'not found' });
});

otlp.listen(OTLP_PORT, '0.0.0.0');
query.listen(QUERY_PORT, '0.0.0.0');
console.log(`otlp-receiver: OTLP/HTTP on :${OTLP_PORT}/v1/traces, spans on :${QUERY_PORT}/api/spans`);
const stop = (): void => {
  otlp.close();
  query.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
