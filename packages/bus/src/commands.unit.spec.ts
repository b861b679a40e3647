import { afterEach, describe, expect, it } from '@jest/globals';
import { commandMessage, commandSender, serveCommands, UnknownCommandError } from './commands.ts';
import type { CommandHandlers, CommandMeta } from './commands.ts';
import { createInProcessBus } from './inProcess.ts';
import type { InProcessBus } from './inProcess.ts';
import { BusRemoteError } from './port.ts';
import type { Message } from './port.ts';

/** A map of two commands, shaped as the services' maps are. */
type ShelfCommands = {
  PutBook: { payload: { title: string; copies: number }; reply: { ok: true; shelved: number } | { ok: false } };
  CountBooks: { payload: { title: string }; reply: number };
};

const TOPIC = 'test.commands.shelf';

describe('typed commands over the in-process bus', () => {
  let bus: InProcessBus;
  afterEach(async () => bus.close());

  it('a command round-trips: the handler gets the typed payload and the meta, the sender the typed reply', async () => {
    bus = createInProcessBus();
    const seen: { payload: unknown; meta: CommandMeta }[] = [];
    const shelf = new Map<string, number>();
    await serveCommands<ShelfCommands>(bus, TOPIC, 'shelf service', {
      PutBook: async (payload, meta) => {
        seen.push({ payload, meta });
        shelf.set(payload.title, (shelf.get(payload.title) ?? 0) + payload.copies);
        return { ok: true, shelved: shelf.get(payload.title)! };
      },
      CountBooks: async ({ title }) => shelf.get(title) ?? 0,
    });
    const send = commandSender<ShelfCommands>(bus, TOPIC, 1_000);

    const put = await send(
      'PutBook',
      'dune',
      { title: 'Dune', copies: 2 },
      { id: 'c-1', headers: { 'x-deadline': '9' } },
    );
    expect(put).toEqual({ ok: true, shelved: 2 });
    // The reply's type is the map's: a number for CountBooks, no cast.
    const count: number = await send('CountBooks', 'dune', { title: 'Dune' });
    expect(count).toBe(2);
    expect(seen).toEqual([
      {
        payload: { title: 'Dune', copies: 2 },
        meta: { commandId: 'c-1', key: 'dune', headers: { 'x-deadline': '9' } },
      },
    ]);
  });

  it('an unknown command type is refused: the requester gets a remote error naming the service and the type', async () => {
    bus = createInProcessBus();
    await serveCommands<ShelfCommands>(bus, TOPIC, 'shelf service', {
      PutBook: async () => ({ ok: false }),
      CountBooks: async () => 0,
    });
    for (const type of ['BurnBook', 'toString', 'constructor']) {
      const message: Message = { id: `m-${type}`, key: 'k', type, payload: {} };
      const reply = bus.request(TOPIC, message, { timeoutMs: 1_000 });
      await expect(reply).rejects.toBeInstanceOf(BusRemoteError);
      await expect(reply).rejects.toThrow(`shelf service: unknown command ${type}`);
    }
    expect(new UnknownCommandError('shelf service', 'BurnBook').message).toBe(
      'shelf service: unknown command BurnBook',
    );
  });

  it('builds the message of a named command: a fresh id unless given, headers only when given', () => {
    const built = commandMessage<ShelfCommands, 'CountBooks'>('CountBooks', 'k', { title: 'Dune' });
    expect(built).toEqual({ id: expect.any(String), key: 'k', type: 'CountBooks', payload: { title: 'Dune' } });
    expect(built).not.toHaveProperty('headers');
    expect(commandMessage<ShelfCommands, 'CountBooks'>('CountBooks', 'k', { title: 'Dune' }).id).not.toBe(built.id);
  });

  it('the map is enforced at compile time (checked by tsc; nothing runs here)', () => {
    const typeChecks = (send: ReturnType<typeof commandSender<ShelfCommands>>) => {
      // @ts-expect-error: not a command of the map
      void send('BurnBook', 'k', {});
      // @ts-expect-error: the payload of another command
      void send('CountBooks', 'k', { title: 'Dune', copies: 1 });
      // @ts-expect-error: a reply is the map's, not anything
      const wrong: string = 0 as unknown as Awaited<ReturnType<typeof send<'CountBooks'>>>;
      // @ts-expect-error: a missing handler
      const missing: CommandHandlers<ShelfCommands> = { CountBooks: async () => 0 };
      const wrongReply: CommandHandlers<ShelfCommands> = {
        PutBook: async () => ({ ok: false }),
        // @ts-expect-error: a handler answering another reply
        CountBooks: async () => 'many',
      };
      return [wrong, missing, wrongReply];
    };
    expect(typeof typeChecks).toBe('function');
  });
});
