/** Helpers around the LMX sandbox of a test stack. */
import { eventually } from '@parcel-logistics/bus/conformance';
import { clientB, DEMO, raw } from './client.ts';
import { orderBody } from './orders.ts';
import type { Target } from './client.ts';

/** A gateway and the LMX sandbox that calls it back. */
export type CarrierTarget = Target & { lmxUrl: string };

export { eventually };

/**
 * Waits until the carrier has registered parcel `tn`, as its status tells (cancelling asks the
 * carrier, so a parcel it has not registered yet is not cancelled); the carrier's number.
 */
export async function carrierNumberOf(client: ReturnType<typeof clientB>, tn: string): Promise<string> {
  let partner = '';
  await eventually(async () => {
    partner = (await client.get('order/query-status', { tracking_num: tn })).body.data.partner_tracking_no;
    expect(partner).not.toBe('');
  });
  return partner;
}

/** Creates an SG (LMX) order and waits until the carrier registration is in its status. */
export async function registeredParcel(stack: Target, overrides: Record<string, unknown> = {}, account = DEMO) {
  const client = clientB(stack, account);
  const created = await client.post('order/create-order', orderBody(overrides));
  if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));
  const tn: string = created.body.data.wmg_tracking_num;
  return { tn, partner: await carrierNumberOf(client, tn) };
}

/** Asks the sandbox to push a signed tracking event to the stack's gateway. */
export async function pushEvent(stack: CarrierTarget, event: Record<string, unknown>) {
  return raw(`${stack.lmxUrl}/v1/sandbox/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
}

export async function pushRaw(
  stack: CarrierTarget,
  request: { carrier?: string; body: string; signature?: string | null },
) {
  return raw(`${stack.lmxUrl}/v1/sandbox/raw-callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
}
