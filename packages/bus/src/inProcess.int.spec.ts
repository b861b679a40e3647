import { describe, expect, it } from '@jest/globals';
import { busConformance, makeMessage } from './conformance.ts';
import { createInProcessBus } from './inProcess.ts';
import type { Message } from './port.ts';

busConformance('in-process', async () => {
  const bus = createInProcessBus({ maxDeliveries: 3, redeliveryDelayMs: 5 });
  return { bus, cleanup: () => bus.close(), maxDeliveries: 3 };
});

describe('in-process bus specifics', () => {
  it('never runs a handler inside the request or publish call', async () => {
    const bus = createInProcessBus();
    const ran: string[] = [];
    await bus.handleRequests('cmd', async () => void ran.push('request'));
    await bus.subscribe('evt', 'g', async () => void ran.push('event'));
    const reply = bus.request('cmd', makeMessage(), { timeoutMs: 1_000 });
    const accepted = bus.publish('evt', makeMessage());
    expect(ran).toEqual([]);
    await Promise.all([reply, accepted]);
    await bus.idle();
    expect(ran.sort()).toEqual(['event', 'request']);
    await bus.close();
  });

  it('does not deliver messages published before the group subscribed', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.publish('evt', makeMessage({ id: 'early' }));
    await bus.subscribe('evt', 'g', async (message) => void seen.push(message.id));
    await bus.publish('evt', makeMessage({ id: 'late' }));
    await bus.idle();
    expect(seen).toEqual(['late']);
    await bus.close();
  });

  it('serves a request sent before its handler registered, within the timeout', async () => {
    const bus = createInProcessBus();
    const reply = bus.request('cmd', makeMessage(), { timeoutMs: 1_000 });
    await bus.handleRequests('cmd', async () => 'ok');
    await expect(reply).resolves.toBe('ok');
    await bus.close();
  });

  it('round-robins requests between handlers of one topic', async () => {
    const bus = createInProcessBus();
    await bus.handleRequests('cmd', async () => 'a');
    await bus.handleRequests('cmd', async () => 'b');
    const replies = [];
    for (let n = 0; n < 4; n += 1) replies.push(await bus.request('cmd', makeMessage(), { timeoutMs: 1_000 }));
    expect(replies).toEqual(['a', 'b', 'a', 'b']);
    await bus.close();
  });

  it('hands handlers a copy, as if the message went over the wire', async () => {
    const bus = createInProcessBus();
    let seen: Message | undefined;
    await bus.subscribe('evt', 'g', async (message) => void (seen = message));
    const message = makeMessage({ payload: { at: new Date('2025-01-02T03:04:05Z') } });
    await bus.publish('evt', message);
    await bus.idle();
    expect(seen).not.toBe(message);
    expect(seen?.payload).toEqual({ at: '2025-01-02T03:04:05.000Z' });
    await bus.close();
  });

  it('dead-letters after the default five deliveries on the default topic', async () => {
    const bus = createInProcessBus({ redeliveryDelayMs: 1 });
    const dead: Message[] = [];
    let deliveries = 0;
    await bus.subscribe('parcel.deadletter.v1', 'ops', async (message) => void dead.push(message));
    await bus.subscribe('evt', 'g', async () => {
      deliveries += 1;
      throw new Error('nope');
    });
    await bus.publish('evt', makeMessage({ id: 'm1', headers: { a: 'b' } }));
    await bus.idle();
    expect(deliveries).toBe(5);
    expect(dead.map((message) => message.headers)).toEqual([
      { a: 'b', 'x-dead-letter-reason': 'nope', 'x-original-topic': 'evt', 'x-original-group': 'g' },
    ]);
    await bus.close();
  });
});
