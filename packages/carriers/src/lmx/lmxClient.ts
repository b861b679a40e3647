import { Agent, request } from 'undici';
import { z } from 'zod';
import type { CancelOutcome, CancelResult, CarrierClient, RegisterResult, ShipmentToRegister } from '../port.ts';

/** One shipment's answer in a batch: its status, and the single registration's body. */
const registeredInBatch = z.object({
  tracking_number: z.string().nullable(),
  status: z.number().int(),
  partner_tracking_no: z.string().min(1).nullable().optional(),
  partner_name: z.string().min(1).optional(),
  message: z.string().optional(),
});
const registeredBatch = z.object({ results: z.array(registeredInBatch) });
/** Shipments per registration request: the most the carrier takes at once. */
const MAX_BATCH = 100;
const cancelled = z.object({
  results: z.array(z.object({ partner_tracking_no: z.string(), cancelled: z.boolean(), message: z.string() })),
});
const problem = z.object({ message: z.string() });

type Answer = { kind: 'http'; status: number; body: unknown } | { kind: 'unreachable'; reason: string };

/** 408 and 429 say "not now" rather than "never". */
const transient = (status: number) => status >= 500 || status === 408 || status === 429 || status < 400;

function describe(a: Extract<Answer, { kind: 'http' }>): string {
  const p = problem.safeParse(a.body);
  return p.success ? `carrier answered HTTP ${a.status}: ${p.data.message}` : `carrier answered HTTP ${a.status}`;
}

export function createLmxClient(options: { baseUrl: string; timeoutMs?: number }): CarrierClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 3000;

  // undici's own request API on kept-alive connections: a registration per parcel made global
  // fetch (WHATWG streams, a timer per call) about a tenth of the order process's CPU.
  const dispatcher = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function post(path: string, body: unknown): Promise<Answer> {
    try {
      const r = await request(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        dispatcher,
      });
      const text = await r.body.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { kind: 'http', status: r.statusCode, body: parsed };
    } catch (e) {
      const err = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; message?: unknown };
      const timedOut = err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT';
      const reason = timedOut
        ? `no answer within ${timeoutMs} ms`
        : `carrier unreachable: ${String(err.code ?? err.message ?? e)}`;
      return { kind: 'unreachable', reason };
    }
  }

  /** One request for up to MAX_BATCH shipments; a failure of the request is every shipment's. */
  async function registerBatch(shipments: readonly ShipmentToRegister[]): Promise<RegisterResult[]> {
    const all = (result: RegisterResult) => shipments.map(() => result);
    const a = await post('/v1/shipments/batch', {
      shipments: shipments.map((s) => ({
        tracking_number: s.trackingNumber,
        carrier: s.carrier,
        recipient_country: s.recipientCountry,
        postal_code: s.postalCode,
        recipient_name: s.recipientName,
        instruction: s.instruction,
      })),
    });
    if (a.kind === 'unreachable') return all({ ok: false, permanent: false, reason: a.reason });
    if (a.status !== 200) return all({ ok: false, permanent: !transient(a.status), reason: describe(a) });
    const r = registeredBatch.safeParse(a.body);
    // A garbled 200, or one that does not answer each shipment in order, is more likely a proxy's
    // fault than a verdict on the shipments.
    if (
      !r.success ||
      r.data.results.length !== shipments.length ||
      r.data.results.some((x, i) => x.tracking_number !== shipments[i]!.trackingNumber)
    )
      return all({ ok: false, permanent: false, reason: 'unexpected carrier response' });
    return r.data.results.map((x): RegisterResult => {
      // Each shipment's answer is the one its registration alone would have had.
      if (x.status !== 200)
        return {
          ok: false,
          permanent: !transient(x.status),
          reason: describe({ kind: 'http', status: x.status, body: x }),
        };
      if (x.partner_name === undefined || x.partner_tracking_no === undefined)
        return { ok: false, permanent: false, reason: 'unexpected carrier response' };
      if (x.partner_tracking_no === null)
        return { ok: false, permanent: true, reason: 'carrier holds no tracking number' };
      return { ok: true, partnerTrackingNo: x.partner_tracking_no, partnerName: x.partner_name };
    });
  }

  return {
    async register(shipments: readonly ShipmentToRegister[]): Promise<RegisterResult[]> {
      const results: RegisterResult[] = [];
      for (let i = 0; i < shipments.length; i += MAX_BATCH)
        results.push(...(await registerBatch(shipments.slice(i, i + MAX_BATCH))));
      return results;
    },

    async cancel(partnerTrackingNos: string[]): Promise<CancelResult> {
      const asked = [...new Set(partnerTrackingNos)];
      if (asked.length === 0) return { ok: true, outcomes: new Map() };
      const a = await post('/v1/cancellations', { partner_tracking_nos: asked });
      if (a.kind === 'unreachable') return { ok: false, reason: a.reason };
      if (a.status !== 200) return { ok: false, reason: describe(a) };
      const r = cancelled.safeParse(a.body);
      if (!r.success) return { ok: false, reason: 'unexpected carrier response' };
      const outcomes = new Map<string, CancelOutcome>();
      for (const x of r.data.results) {
        if (asked.includes(x.partner_tracking_no))
          outcomes.set(
            x.partner_tracking_no,
            x.cancelled ? { cancelled: true } : { cancelled: false, message: x.message },
          );
      }
      if (asked.some((no) => !outcomes.has(no)))
        return { ok: false, reason: 'carrier answered for only part of the batch' };
      return { ok: true, outcomes };
    },
  };
}
