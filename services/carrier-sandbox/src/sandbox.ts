import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { push, sign, singaporeTime } from './callback.ts';
import type { PushOutcome } from './callback.ts';
import { BadRequest, readJson, send } from './http.ts';
import { cancellationBody, eventBody, parseBody, rawCallbackBody, shipmentBatchBody, shipmentBody } from './schemas.ts';
import { createShipmentBook } from './shipments.ts';
import type { SandboxShipment } from './shipments.ts';

export interface CarrierSandboxOptions {
  /** Base URL of our service; events go to `${callbackUrl}/carrier-events/{carrier}`. */
  callbackUrl?: string;
  secret: string;
  now?: () => Date;
  /** Served as GET /metrics (the distributed sandbox's; the embedded stack's gateway serves its process's). */
  metrics?: { readonly contentType: string; render(): Promise<string> };
}

export interface PushedEvent {
  url: string;
  body: string;
  outcome: PushOutcome;
}

export interface CarrierSandboxState {
  /** Registered shipments by partner tracking number. */
  readonly shipments: ReadonlyMap<string, Readonly<SandboxShipment>>;
  readonly pushed: readonly PushedEvent[];
}

export interface CarrierSandbox {
  listen(port: number, host?: string): Promise<{ url: string }>;
  close(): Promise<void>;
  readonly state: CarrierSandboxState;
}

const PARTNER_NAME = 'LMX Express';

export function createCarrierSandbox(options: CarrierSandboxOptions): CarrierSandbox {
  const now = options.now ?? (() => new Date());
  const book = createShipmentBook(now);
  const pushed: PushedEvent[] = [];
  const callbackBase = options.callbackUrl?.replace(/\/+$/, '');
  let server: Server | undefined;

  async function deliver(res: ServerResponse, carrier: string, raw: Buffer, signature: string | null) {
    if (!callbackBase) return send(res, 503, { message: 'No callback URL configured' });
    const url = `${callbackBase}/carrier-events/${carrier}`;
    const outcome = await push(url, raw, signature);
    pushed.push({ url, body: raw.toString('utf8'), outcome });
    send(res, outcome.status ?? 502, outcome);
  }

  /** One shipment's registration, as `POST /v1/shipments` answers it: its status and body. */
  function registerOne(body: unknown): { status: number; body: Record<string, unknown> } {
    const p = parseBody(shipmentBody, body);
    if (!p.ok) return { status: 400, body: { message: p.message } };
    const v = p.value;
    const s = book.register({
      trackingNumber: v.tracking_number,
      carrier: v.carrier,
      recipientCountry: v.recipient_country,
      postalCode: v.postal_code,
      recipientName: v.recipient_name,
      instruction: v.instruction,
    });
    if (!s)
      return {
        status: 200,
        body: { partner_tracking_no: null, partner_name: PARTNER_NAME, message: 'Shipment not registered' },
      };
    return { status: 200, body: { partner_tracking_no: s.partnerTrackingNo, partner_name: PARTNER_NAME } };
  }

  const routes: Record<string, (body: unknown, res: ServerResponse) => Promise<void> | void> = {
    '/v1/shipments': (body, res) => {
      const answer = registerOne(body);
      send(res, answer.status, answer.body);
    },
    '/v1/shipments/batch': (body, res) => {
      const p = parseBody(shipmentBatchBody, body);
      if (!p.ok) return send(res, 400, { message: p.message });
      // Each shipment answered on its own, as the single registration would answer it, in request order.
      const results = p.value.shipments.map((shipment) => {
        const { status, body: answer } = registerOne(shipment);
        const trackingNumber = (shipment as { tracking_number?: unknown } | null)?.tracking_number;
        return { tracking_number: typeof trackingNumber === 'string' ? trackingNumber : null, status, ...answer };
      });
      send(res, 200, { results });
    },
    '/v1/cancellations': (body, res) => {
      const p = parseBody(cancellationBody, body);
      if (!p.ok) return send(res, 400, { message: p.message });
      const answer = book.cancel(p.value.partner_tracking_nos);
      if (answer.rejected) return send(res, 422, { message: 'Cancel batch rejected' });
      send(res, 200, { results: answer.results });
    },
    '/v1/sandbox/events': (body, res) => {
      const p = parseBody(eventBody, body);
      if (!p.ok) return send(res, 400, { message: p.message });
      const v = p.value;
      const event = {
        partner_tracking_no: v.partner_tracking_no,
        event_code: v.event_code,
        event_time: v.event_time ?? singaporeTime(now()),
        location: v.location,
        remarks: v.remarks,
        receive_by: v.receive_by,
        pod: v.pod,
      };
      const raw = Buffer.from(JSON.stringify(event), 'utf8');
      const carrier = book.shipments.get(v.partner_tracking_no)?.carrier ?? 'LMX';
      return deliver(res, carrier, raw, sign(raw, options.secret));
    },
    '/v1/sandbox/raw-callback': (body, res) => {
      const p = parseBody(rawCallbackBody, body);
      if (!p.ok) return send(res, 400, { message: p.message });
      const raw = Buffer.from(p.value.body, 'utf8');
      const signature = p.value.signature === undefined ? sign(raw, options.secret) : p.value.signature;
      return deliver(res, p.value.carrier, raw, signature);
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, { status: 'ok' });
    // Holds everything in memory: once it answers at all, it is ready.
    if (req.method === 'GET' && path === '/readyz') return send(res, 200, { status: 'ready' });
    if (req.method === 'GET' && path === '/metrics' && options.metrics) {
      const text = await options.metrics.render();
      res.writeHead(200, { 'content-type': options.metrics.contentType });
      return void res.end(text);
    }
    const route = req.method === 'POST' ? routes[path] : undefined;
    if (!route) return send(res, 404, { message: 'Not found' });
    await route(await readJson(req), res);
  }

  return {
    state: {
      get shipments() {
        return book.shipments;
      },
      get pushed() {
        return pushed as readonly PushedEvent[];
      },
    },
    listen(port, host = '127.0.0.1') {
      if (server) return Promise.reject(new Error('carrier sandbox already listening'));
      const s = createServer((req, res) => {
        handle(req, res).catch((e: unknown) => {
          if (e instanceof BadRequest) send(res, 400, { message: e.message });
          else if (!res.headersSent) send(res, 500, { message: 'Internal error' });
          else res.destroy();
        });
      });
      server = s;
      return new Promise((resolve, reject) => {
        s.once('error', (e) => {
          server = undefined;
          reject(e);
        });
        s.listen(port, host, () => {
          const a = s.address() as AddressInfo;
          const shown =
            a.address === '0.0.0.0' || a.address === '::'
              ? '127.0.0.1'
              : a.family === 'IPv6'
                ? `[${a.address}]`
                : a.address;
          resolve({ url: `http://${shown}:${a.port}` });
        });
      });
    },
    close() {
      const s = server;
      server = undefined;
      if (!s) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        s.close((e) => (e ? reject(e) : resolve()));
        // Keep-alive sockets of callers would otherwise hold close() open.
        s.closeAllConnections();
      });
    },
  };
}
