import { createHash } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { itAcrossReopen, pingAndCloseCase } from '@parcel-logistics/conformance';
import type { TokenRecord } from '../port.ts';
import { parcelView, type Context } from './context.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function tokenCases(ctx: Context): void {
  const token = (clientId: string, secret: string, issuedAt = 1_790_000_000_000): TokenRecord => ({
    clientId,
    tokenHash: sha256(ctx.id(secret)),
    issuedAt,
    expiresAt: issuedAt + 86_400_000,
  });

  it('finds a stored token by its hash; an unknown hash finds nothing', async () => {
    const record = token(ctx.id('client'), 'first');
    await ctx.store.tokens.put(record);
    expect(await ctx.store.tokens.findByHash(record.tokenHash)).toEqual(record);
    expect(await ctx.store.tokens.findByHash(sha256(ctx.id('unknown')))).toBeNull();
    expect(await ctx.store.tokens.findByHash(record.tokenHash.toUpperCase())).toBeNull();
  });

  it("a new token supersedes the account's older one and no other account's", async () => {
    const [a, b] = [ctx.id('a'), ctx.id('b')];
    const older = token(a, 'older');
    const other = token(b, 'other');
    const newer = token(a, 'newer', older.issuedAt + 1000);
    await ctx.store.tokens.put(older);
    await ctx.store.tokens.put(other);
    await ctx.store.tokens.put(newer);
    expect(await ctx.store.tokens.findByHash(older.tokenHash)).toBeNull();
    expect(await ctx.store.tokens.findByHash(newer.tokenHash)).toEqual(newer);
    expect(await ctx.store.tokens.findByHash(other.tokenHash)).toEqual(other);
  });

  it('matches hostile token hashes literally', async () => {
    const record = { ...token(ctx.id('client'), 'x'), tokenHash: ctx.id('{"$gt":""}') };
    await ctx.store.tokens.put(record);
    expect(await ctx.store.tokens.findByHash(record.tokenHash)).toEqual(record);
    for (const probe of ['{"$gt":""}', '$where', '', `' OR '1'='1`, '\u0000']) {
      expect(await ctx.store.tokens.findByHash(probe)).toBeNull();
    }
  });

  pingAndCloseCase(ctx);

  itAcrossReopen('keeps parcels and tokens across a reopen', ctx, async (reopen) => {
    const view = parcelView({ trackingNumber: ctx.id('D1'), clientId: ctx.id('client') });
    const record = token(view.clientId, 'kept');
    await ctx.store.parcels.save(view, -1);
    await ctx.store.tokens.put(record);
    await ctx.store.close();
    const reopened = await reopen();
    expect(await reopened.parcels.getForClient(view.clientId, view.trackingNumber)).toEqual(view);
    expect(await reopened.parcels.save(view, -1)).toBe(false);
    expect(await reopened.tokens.findByHash(record.tokenHash)).toEqual(record);
  });
}
