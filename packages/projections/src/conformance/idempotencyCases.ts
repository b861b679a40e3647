import { expect, it } from '@jest/globals';
import { itAcrossReopen } from '@parcel-logistics/conformance';
import type { IdempotencyClaimRequest, IdempotencyRecord } from '../port.ts';
import type { Context } from './context.ts';

const t0 = 1_790_000_000_000;
const lease = 30_000;
const retention = 86_400_000;

/** Hostile account ids and keys: query syntax of MongoDB and SQL, prototype names, odd characters. */
const hostile = [
  '{"$gt":""}',
  '$where',
  '__proto__',
  `' OR '1'='1`,
  '%',
  'a.b',
  '["a","b"]',
  '\u0000',
  'ключ 鍵 🔑 é',
  'k'.repeat(255),
];

export function idempotencyCases(ctx: Context): void {
  const store = () => ctx.store.idempotency;
  const claim = (fields: Partial<IdempotencyClaimRequest> = {}): IdempotencyClaimRequest => {
    const now = fields.now ?? t0;
    return {
      clientId: ctx.id('client'),
      key: ctx.id('key'),
      fingerprint: 'POST /orders 1f2e3d',
      owner: ctx.id('owner'),
      lockedUntil: now + lease,
      expiresAt: now + retention,
      ...fields,
      now,
    };
  };
  /** The record a successful claim leaves. */
  const pending = ({
    clientId,
    key,
    fingerprint,
    owner,
    lockedUntil,
    now,
    expiresAt,
  }: IdempotencyClaimRequest): IdempotencyRecord => ({
    clientId,
    key,
    fingerprint,
    state: 'pending',
    owner,
    lockedUntil,
    createdAt: now,
    expiresAt,
  });
  const answer = { status: 201, body: '{"code":0,"data":{"tracking_number":"LMX123"}}' };

  it('claims a new key; a second claim while the lease runs is refused with the live record, whatever its fingerprint', async () => {
    const first = claim();
    expect(await store().get(first.clientId, first.key)).toBeNull();
    expect(await store().claim(first)).toEqual({ claimed: true });
    const record = pending(first);
    expect(await store().get(first.clientId, first.key)).toEqual(record);
    for (const fingerprint of [first.fingerprint, 'POST /orders other']) {
      const again = claim({ fingerprint, owner: ctx.id('second'), now: first.lockedUntil - 1 });
      expect(await store().claim(again)).toEqual({ claimed: false, record });
    }
    expect(await store().get(first.clientId, first.key)).toEqual(record);
  });

  it('scopes keys per account', async () => {
    const a = claim({ clientId: ctx.id('a'), owner: ctx.id('owner-a') });
    const b = claim({ clientId: ctx.id('b'), owner: ctx.id('owner-b') });
    expect(await store().claim(a)).toEqual({ claimed: true });
    expect(await store().claim(b)).toEqual({ claimed: true });
    expect(await store().get(a.clientId, a.key)).toEqual(pending(a));
    expect(await store().get(b.clientId, b.key)).toEqual(pending(b));
  });

  it("stores the owner's answer once; another owner writes nothing; claims then get the done record, even past the lease", async () => {
    const first = claim();
    await store().claim(first);
    expect(await store().complete(first.clientId, first.key, ctx.id('intruder'), { status: 500, body: 'x' })).toBe(
      false,
    );
    expect(await store().get(first.clientId, first.key)).toEqual(pending(first));
    expect(await store().complete(first.clientId, first.key, first.owner, answer)).toBe(true);
    const done = { ...pending(first), state: 'done', answer };
    expect(await store().get(first.clientId, first.key)).toEqual(done);
    // Done: the owner no longer holds a pending claim either.
    expect(await store().complete(first.clientId, first.key, first.owner, { status: 500, body: 'x' })).toBe(false);
    const later = claim({ owner: ctx.id('later'), now: first.lockedUntil + 1 });
    expect(await store().claim(later)).toEqual({ claimed: false, record: done });
    expect(await store().claim({ ...later, fingerprint: 'POST /orders other' })).toEqual({
      claimed: false,
      record: done,
    });
  });

  it('stores a body of 1.2 MB and one of arbitrary unicode exactly', async () => {
    const bodies = {
      // 1.2 MB of JSON (20 000 items of 60 characters).
      large: JSON.stringify({
        code: 0,
        data: Array.from({ length: 20_000 }, (_, i) => ({ n: i, pad: 'x'.repeat(40) })),
      }),
      unicode: '{"name":"Tan Ah Kow 陈亚九 محمد 🚚📦 e\u0301 \u0000 \u2028 \uffff 𝄞"}',
    };
    for (const [label, body] of Object.entries(bodies)) {
      const request = claim({ key: ctx.id(label) });
      await store().claim(request);
      expect(await store().complete(request.clientId, request.key, request.owner, { status: 200, body })).toBe(true);
      expect((await store().get(request.clientId, request.key))?.answer).toEqual({ status: 200, body });
    }
  });

  it('releases a pending claim for its owner only; the next claim then runs anew', async () => {
    const first = claim();
    await store().claim(first);
    await store().release(first.clientId, first.key, ctx.id('intruder'));
    expect(await store().get(first.clientId, first.key)).toEqual(pending(first));
    await store().release(first.clientId, first.key, first.owner);
    expect(await store().get(first.clientId, first.key)).toBeNull();
    const next = claim({ owner: ctx.id('next'), fingerprint: 'POST /orders other' });
    expect(await store().claim(next)).toEqual({ claimed: true });
    expect(await store().get(next.clientId, next.key)).toEqual(pending(next));
  });

  it('keeps a done record when its owner releases it', async () => {
    const first = claim();
    await store().claim(first);
    await store().complete(first.clientId, first.key, first.owner, answer);
    await store().release(first.clientId, first.key, first.owner);
    expect(await store().get(first.clientId, first.key)).toEqual({ ...pending(first), state: 'done', answer });
  });

  it('hands a lapsed lease to a claim with the same fingerprint only; the former owner then holds nothing', async () => {
    const first = claim();
    await store().claim(first);
    const early = claim({ owner: ctx.id('early'), now: first.lockedUntil - 1 });
    expect(await store().claim(early)).toEqual({ claimed: false, record: pending(first) });
    const other = claim({ owner: ctx.id('other'), fingerprint: 'POST /orders other', now: first.lockedUntil });
    expect(await store().claim(other)).toEqual({ claimed: false, record: pending(first) });

    const retry = claim({ owner: ctx.id('retry'), now: first.lockedUntil });
    expect(await store().claim(retry)).toEqual({ claimed: true });
    expect(await store().get(first.clientId, first.key)).toEqual(pending(retry));
    expect(await store().complete(first.clientId, first.key, first.owner, { status: 500, body: 'late' })).toBe(false);
    await store().release(first.clientId, first.key, first.owner);
    expect(await store().get(first.clientId, first.key)).toEqual(pending(retry));
    expect(await store().complete(first.clientId, first.key, retry.owner, answer)).toBe(true);
    expect(await store().get(first.clientId, first.key)).toEqual({ ...pending(retry), state: 'done', answer });
  });

  it('lets any fingerprint claim an expired record anew, pending or done', async () => {
    for (const state of ['pending', 'done'] as const) {
      const first = claim({ key: ctx.id(state), expiresAt: t0 + 5_000 });
      await store().claim(first);
      if (state === 'done') await store().complete(first.clientId, first.key, first.owner, answer);
      const live = await store().get(first.clientId, first.key);
      const before = claim({
        key: first.key,
        owner: ctx.id('before'),
        fingerprint: 'POST /orders other',
        now: first.expiresAt - 1,
      });
      expect(await store().claim(before)).toEqual({ claimed: false, record: live });
      const after = { ...before, owner: ctx.id('after'), now: first.expiresAt };
      expect(await store().claim(after)).toEqual({ claimed: true });
      // The new record is the new claim's alone: no answer of the former one.
      expect(await store().get(first.clientId, first.key)).toEqual(pending(after));
      expect(await store().complete(first.clientId, first.key, first.owner, answer)).toBe(false);
    }
  });

  it('of 20 concurrent claims exactly one wins, on a new key, an expired record and a lapsed lease', async () => {
    const expired = claim({ key: ctx.id('expired'), expiresAt: t0 + 1_000 });
    const lapsed = claim({ key: ctx.id('lapsed'), lockedUntil: t0 + 1_000 });
    await store().claim(expired);
    await store().claim(lapsed);
    for (const key of [ctx.id('new'), expired.key, lapsed.key]) {
      const requests = Array.from({ length: 20 }, (_, i) =>
        claim({ key, owner: ctx.id(`racer-${i}`), now: t0 + 2_000 }),
      );
      const results = await Promise.all(requests.map((request) => store().claim(request)));
      const winners = requests.filter((_, i) => results[i]!.claimed);
      expect(winners).toHaveLength(1);
      const record = pending(winners[0]!);
      expect(await store().get(record.clientId, key)).toEqual(record);
      // Every loser saw the winner's record.
      expect(results.filter((result) => !result.claimed)).toEqual(
        Array.from({ length: 19 }, () => ({ claimed: false, record })),
      );
    }
  });

  it('purges exactly the records expired by then and counts them', async () => {
    // Earlier than any other test's times: a shared database holds no other record expired by `now`.
    const now = 2_000;
    const records = [
      claim({ key: ctx.id('old-pending'), now: 0, expiresAt: 1_000 }),
      claim({ key: ctx.id('old-done'), now: 0, expiresAt: 1_000 }),
      claim({ key: ctx.id('just-expired'), now: 0, expiresAt: now }),
      claim({ key: ctx.id('kept'), now: 0, expiresAt: now + 1 }),
    ];
    for (const record of records) await store().claim(record);
    await store().complete(records[1]!.clientId, records[1]!.key, records[1]!.owner, answer);
    expect(await store().purgeExpired(now)).toBe(3);
    const left = await Promise.all(records.map((record) => store().get(record.clientId, record.key)));
    expect(left).toEqual([null, null, null, pending(records[3]!)]);
    expect(await store().purgeExpired(now)).toBe(0);
  });

  it('matches hostile keys and account ids literally', async () => {
    const client = ctx.id('client');
    // Each under a hostile key of one account and under one key of a hostile account; fingerprints tell them apart.
    const requests = hostile.flatMap((text, i) => [
      claim({ clientId: client, key: text, fingerprint: `key ${i}`, owner: ctx.id(`key-${i}`) }),
      claim({
        clientId: `${text}${client}`,
        key: ctx.id('key'),
        fingerprint: `client ${i}`,
        owner: ctx.id(`client-${i}`),
      }),
    ]);
    for (const request of requests) expect(await store().claim(request)).toEqual({ claimed: true });
    for (const request of requests) {
      expect(await store().get(request.clientId, request.key)).toEqual(pending(request));
      expect(await store().complete(request.clientId, request.key, '{"$ne":""}', answer)).toBe(false);
      await store().release(request.clientId, request.key, '{"$ne":""}');
    }
    for (const probe of ['{"$gt":""}', '$where', `' OR '1'='1`, '%', '']) {
      expect(await store().get(probe, ctx.id('key'))).toBeNull();
      expect(await store().get(client, `${probe}x`)).toBeNull();
    }
    // The hostile owners above wrote nothing.
    expect(await Promise.all(requests.map((request) => store().get(request.clientId, request.key)))).toEqual(
      requests.map(pending),
    );
  });

  it('keeps pairs apart that a joined account id and key would confuse', async () => {
    const client = ctx.id('client');
    const pairs: [string, string][] = [
      [client, 'a:b'],
      [`${client}:a`, 'b'],
      [client, 'a","b'],
      [`${client}","a`, 'b'],
      [client, '["a"]'],
    ];
    const requests = pairs.map(([clientId, key], i) => claim({ clientId, key, fingerprint: `pair ${i}` }));
    for (const request of requests) expect(await store().claim(request)).toEqual({ claimed: true });
    for (const request of requests) expect(await store().get(request.clientId, request.key)).toEqual(pending(request));
  });

  /** A done record of `fields`, its answer concerning `parcels`. */
  const answered = async (parcels: readonly string[] | undefined, fields: Partial<IdempotencyClaimRequest> = {}) => {
    const request = claim(fields);
    expect(await store().claim(request)).toEqual({ claimed: true });
    expect(await store().complete(request.clientId, request.key, request.owner, answer, parcels)).toBe(true);
    return request;
  };
  const recordOf = async (request: IdempotencyClaimRequest) => store().get(request.clientId, request.key);

  it('forgets the records whose answers concern the parcels given, of any account; the others stay; the key is then claimed anew', async () => {
    const [one, two, three] = [ctx.id('PX1'), ctx.id('PX2'), ctx.id('PX3')];
    const a = await answered([one], { clientId: ctx.id('a'), key: ctx.id('key-a'), owner: ctx.id('owner-a') });
    const b = await answered([one, two], { clientId: ctx.id('b'), key: ctx.id('key-b'), owner: ctx.id('owner-b') });
    const c = await answered([three], { clientId: ctx.id('a'), key: ctx.id('key-c'), owner: ctx.id('owner-c') });
    const plain = await answered(undefined, {
      clientId: ctx.id('a'),
      key: ctx.id('key-plain'),
      owner: ctx.id('owner-plain'),
    });
    const none = await answered([], { clientId: ctx.id('a'), key: ctx.id('key-none'), owner: ctx.id('owner-none') });
    const held = claim({ clientId: ctx.id('a'), key: ctx.id('key-held'), owner: ctx.id('owner-held') });
    await store().claim(held);
    expect(await store().forgetParcels([])).toBe(0);
    expect(await store().forgetParcels([ctx.id('PX'), `${one}x`, ctx.id('UNKNOWN')])).toBe(0);
    expect(await store().forgetParcels([one, one, ctx.id('UNKNOWN')])).toBe(2);
    expect(await recordOf(a)).toBeNull();
    expect(await recordOf(b)).toBeNull();
    for (const kept of [c, plain, none])
      expect(await recordOf(kept)).toEqual({ ...pending(kept), state: 'done', answer });
    expect(await recordOf(held)).toEqual(pending(held));
    // b went with one: nothing is left of it by two.
    expect(await store().forgetParcels([two])).toBe(0);
    const anew = claim({ clientId: a.clientId, key: a.key, fingerprint: 'POST /other', owner: ctx.id('anew') });
    expect(await store().claim(anew)).toEqual({ claimed: true });
    expect(await store().forgetParcels([three])).toBe(1);
    expect(await recordOf(c)).toBeNull();
  });

  it("forgets by an answer's parcels only: not by a refused complete's, nor a record's since taken over or purged", async () => {
    const parcel = ctx.id('PX');
    // Another owner's complete writes nothing, its parcels included.
    const first = claim();
    await store().claim(first);
    expect(await store().complete(first.clientId, first.key, ctx.id('intruder'), answer, [parcel])).toBe(false);
    expect(await store().complete(first.clientId, first.key, first.owner, answer)).toBe(true);
    // Expired, then claimed anew: the new record is not the former answer's.
    const expired = await answered([parcel], {
      key: ctx.id('expired'),
      owner: ctx.id('expired'),
      expiresAt: t0 + 5_000,
    });
    const after = claim({ key: expired.key, owner: ctx.id('after'), now: expired.expiresAt });
    expect(await store().claim(after)).toEqual({ claimed: true });
    expect(await store().complete(after.clientId, after.key, after.owner, answer)).toBe(true);
    expect(await store().forgetParcels([parcel])).toBe(0);
    expect(await recordOf(first)).toEqual({ ...pending(first), state: 'done', answer });
    expect(await recordOf(after)).toEqual({ ...pending(after), state: 'done', answer });
    // Purged (earlier than any other test's times), then claimed anew by the same key.
    const old = await answered([parcel], { key: ctx.id('old'), owner: ctx.id('old'), now: 0, expiresAt: 1_000 });
    await store().purgeExpired(1_000);
    expect(await recordOf(old)).toBeNull();
    const again = await answered(undefined, { key: old.key, owner: ctx.id('again') });
    expect(await store().forgetParcels([parcel])).toBe(0);
    expect(await recordOf(again)).toEqual({ ...pending(again), state: 'done', answer });
  });

  it('matches hostile tracking numbers literally when forgetting', async () => {
    const records = await Promise.all(
      hostile.map((text, i) =>
        answered([`${text}${i}`], { key: ctx.id(`hostile-${i}`), owner: ctx.id(`hostile-${i}`) }),
      ),
    );
    for (const probe of ['{"$gt":""}', '$where', `' OR '1'='1`, '%', '', '["a","b"]'])
      expect(await store().forgetParcels([probe])).toBe(0);
    expect(await Promise.all(records.map(recordOf))).toEqual(
      records.map((r) => ({ ...pending(r), state: 'done', answer })),
    );
    expect(await store().forgetParcels(hostile.map((text, i) => `${text}${i}`))).toBe(records.length);
    expect(await Promise.all(records.map(recordOf))).toEqual(records.map(() => null));
  });

  itAcrossReopen('keeps idempotency records across a reopen', ctx, async (reopen) => {
    const held = claim({ key: ctx.id('held') });
    const done = claim({ key: ctx.id('done') });
    await store().claim(held);
    await store().claim(done);
    await store().complete(done.clientId, done.key, done.owner, answer, [ctx.id('PX')]);
    await ctx.store.close();
    const reopened = await reopen();
    expect(await reopened.idempotency.get(held.clientId, held.key)).toEqual(pending(held));
    expect(await reopened.idempotency.get(done.clientId, done.key)).toEqual({
      ...pending(done),
      state: 'done',
      answer,
    });
    expect(await reopened.idempotency.claim({ ...held, owner: ctx.id('again') })).toEqual({
      claimed: false,
      record: pending(held),
    });
    // Which parcels an answer concerns is kept too.
    expect(await reopened.idempotency.forgetParcels([ctx.id('PX')])).toBe(1);
    expect(await reopened.idempotency.get(done.clientId, done.key)).toBeNull();
  });
}
