/**
 * Open-loop load at a fixed rate, arrivals evenly spaced: request i leaves at start + i / rate,
 * whether or not the ones before have been answered, as independent clients arrive. (autocannon's
 * `overallRate` lets every connection send its quota of the second back to back and then wait, so
 * a fixed rate arrives as one burst per second, which fills every batch downstream and hides the
 * per-message cost.) Keep-alive connections, as many as are in flight. Reports what `load` of
 * support.ts does, plus how late the sends left (a generator that cannot keep up is visible) and
 * which request bodies were accepted and which were not, so that a bench can look them up.
 */
import { Agent, request } from 'node:http';
import { percentile, type Row } from './support.ts';
import { machineBusyMs } from './processCpu.ts';

export interface OpenLoopOptions {
  url: string;
  path: string;
  ratePerS: number;
  durationS: number;
  /** Headers and body of each request (a fresh seed and reference each). */
  next(): { headers: Record<string, string>; body: string };
  /** Whether an answer accepts the request (default: a 2xx status); the others count as non-2xx. */
  accepted?: (status: number, body: string) => boolean;
}

export interface OpenLoopRow extends Row {
  /** The latest a request left after its slot, ms. */
  maxLateMs: number;
  /** The bodies of the requests accepted, and of those not (refused, or failed without an answer). */
  bodies: { accepted: string[]; notAccepted: string[] };
}

export async function openLoop(name: string, options: OpenLoopOptions): Promise<OpenLoopRow> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(options.path, options.url);
  const send = (headers: Record<string, string>, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(target, { method: 'POST', headers, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end(body);
    });
  const total = Math.round(options.ratePerS * options.durationS);
  const interval = 1000 / options.ratePerS;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let maxLateMs = 0;
  const accepted = options.accepted ?? ((status: number) => status >= 200 && status < 300);
  const bodies: OpenLoopRow['bodies'] = { accepted: [], notAccepted: [] };
  const inFlight: Promise<void>[] = [];
  const busyBefore = machineBusyMs();
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const slot = start + i * interval;
    const wait = slot - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    maxLateMs = Math.max(maxLateMs, performance.now() - slot);
    const { headers, body } = options.next();
    const sent = performance.now();
    inFlight.push(
      send(headers, body)
        .then((answer) => {
          latencies.push(performance.now() - sent);
          if (accepted(answer.status, answer.text)) bodies.accepted.push(body);
          else {
            non2xx++;
            bodies.notAccepted.push(body);
          }
        })
        .catch((error: unknown) => {
          errors++;
          bodies.notAccepted.push(body);
          // A failed request must say what failed; the first says it for the rest.
          if (errors === 1) console.warn(`${name}: a request failed: ${String(error)}`);
        }),
    );
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  const busyMs = machineBusyMs() - busyBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx,
    errors,
    cpu: Math.round((busyMs / (seconds * 1000)) * 100),
    maxLateMs: Math.round(maxLateMs),
    bodies,
  };
}
