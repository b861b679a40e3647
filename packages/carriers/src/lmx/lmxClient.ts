import { Agent, request } from 'undici';
import { z } from 'zod';
import type { CancelOutcome, CancelResult, CarrierClient, RegisterResult, ShipmentToRegister } from '../port.ts';

const registered = z.object({
  partner_tracking_no: z.string().min(1).nullable(),
  partner_name: z.string().min(1),
});
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

  return {
    async register(s: ShipmentToRegister): Promise<RegisterResult> {
      const a = await post('/v1/shipments', {
        tracking_number: s.trackingNumber,
        carrier: s.carrier,
        recipient_country: s.recipientCountry,
        postal_code: s.postalCode,
        recipient_name: s.recipientName,
        instruction: s.instruction,
      });
      if (a.kind === 'unreachable') return { ok: false, permanent: false, reason: a.reason };
      if (a.status !== 200) return { ok: false, permanent: !transient(a.status), reason: describe(a) };
      const r = registered.safeParse(a.body);
      // A garbled 200 is more likely a proxy's fault than a verdict on the shipment.
      if (!r.success) return { ok: false, permanent: false, reason: 'unexpected carrier response' };
      if (r.data.partner_tracking_no === null)
        return { ok: false, permanent: true, reason: 'carrier holds no tracking number' };
      return { ok: true, partnerTrackingNo: r.data.partner_tracking_no, partnerName: r.data.partner_name };
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
