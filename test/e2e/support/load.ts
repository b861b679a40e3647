/** A steady create-order load that records, per reference, what the client was told. */
import { clientB } from '../../support/client.ts';
import type { Target } from '../../support/client.ts';
import { orderBody, uniqueRef } from '../../support/orders.ts';

export interface Outcome {
  ref: string;
  /** The tracking number when the answer was code 0; null for any error (HTTP, envelope or network). */
  trackingNumber: string | null;
  answer: string;
}

export class OrderLoad {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly workers: Promise<void>[];

  /** `concurrency` clients, round robin over the gateways, each sending one order after another. */
  constructor(
    targets: () => Target[],
    concurrency: number,
    body: (ref: string) => Record<string, unknown> = (ref) =>
      orderBody({ custom_tracking_num: ref, recipient_country: 'AU', postal_code: '2000' }),
  ) {
    this.workers = Array.from({ length: concurrency }, async (_, w) => {
      for (let n = 0; this.running; n++) {
        const all = targets();
        const target = all[(w + n) % all.length]!;
        const ref = uniqueRef('LOAD');
        try {
          const r = await clientB(target).post('order/create-order', body(ref));
          const ok = r.status === 200 && r.body?.code === 0;
          this.outcomes.push({
            ref,
            trackingNumber: ok ? r.body.data.wmg_tracking_num : null,
            answer: `${r.status} ${JSON.stringify(r.body).slice(0, 120)}`,
          });
        } catch (error) {
          this.outcomes.push({ ref, trackingNumber: null, answer: String(error) });
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
  }

  get acknowledged(): Outcome[] {
    return this.outcomes.filter((o) => o.trackingNumber !== null);
  }

  get failed(): Outcome[] {
    return this.outcomes.filter((o) => o.trackingNumber === null);
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }
}
