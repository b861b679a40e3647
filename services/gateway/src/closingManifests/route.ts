/**
 * End-of-day manifests (docs/bulk.md): create-manifest asks the order service to close the
 * account's parcels of a carrier; get-manifest and list-manifests read the manifests' read model.
 * The PDF is rendered by the label service on each answer, the CSV here; neither is stored.
 */
import type { Router, Response } from 'express';
import {
  B,
  check,
  CODE_SUCCESS,
  CreateManifestRequest,
  ListManifestsQuery,
  Manifest,
  MANIFEST_LIST_DEFAULT,
  manifestCsv,
  ManifestIdQuery,
  manifestSummaryOf,
} from '@parcel-logistics/contracts';
import type { ManifestResult, StoredManifest } from '@parcel-logistics/contracts';
import { TRACKING_ALPHABET } from '@parcel-logistics/domain';
import type { ManifestStore } from '@parcel-logistics/projections';
import { randomBytes } from 'node:crypto';
import { accountOf } from '../context.ts';
import type { GatewayCommands, Mounting } from '../context.ts';
import { failB, sendB } from '../http/interfaces.ts';
import { mount } from '../http/mount.ts';

/** What the manifest routes reach: the order and label services, and the manifests' read model. */
export interface ClosingManifestsDeps extends Mounting {
  commands: Pick<GatewayCommands, 'order' | 'label'>;
  projections: { manifests: Pick<ManifestStore, 'getForClient' | 'listForClient'> };
}

/** `MF` and 16 characters of Crockford's base 32 (tracking numbers' alphabet): short enough for a Code 128 barcode on the page. */
export const newManifestId = (): string => 'MF' + [...randomBytes(16)].map((b) => TRACKING_ALPHABET[b & 31]).join('');

export function closingManifests(router: Router, ctx: ClosingManifestsDeps): void {
  /** The manifest with its documents, or the render's failure as the generic server error. */
  async function answer(res: Response, manifest: StoredManifest): Promise<void> {
    const pdf = await ctx.commands.label('RenderManifest', manifest.manifestId, { manifest });
    if (!pdf.ok) throw new Error(pdf.message);
    const data: ManifestResult = { ...manifestSummaryOf(manifest), pdf: pdf.content, csv: manifestCsv(manifest) };
    sendB(res, CODE_SUCCESS, B.success, data);
  }

  mount(router, ctx, 'createManifest', async (req, res) => {
    const account = accountOf(res);
    const body = check(CreateManifestRequest, req.body);
    if (!body.ok) return failB(res, body.message);
    // Keyed by account and carrier: one account's manifests of a carrier are made one after another.
    const reply = await ctx.commands.order('CreateManifest', `${account.clientId}/${body.value.carrier}`, {
      clientId: account.clientId,
      carrier: body.value.carrier,
      manifestId: newManifestId(),
    });
    if (!reply.ok)
      return failB(res, reply.error === 'UnsupportedCarrier' ? B.invalid('carrier') : Manifest.nothingToClose);
    await answer(res, reply.manifest);
  });

  mount(router, ctx, 'getManifest', async (req, res) => {
    const query = check(ManifestIdQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const manifest = await ctx.projections.manifests.getForClient(accountOf(res).clientId, query.value.manifest_id);
    if (!manifest) return failB(res, Manifest.notFound);
    await answer(res, manifest);
  });

  mount(router, ctx, 'listManifests', async (req, res) => {
    const query = check(ListManifestsQuery, req.query);
    if (!query.ok) return failB(res, query.message);
    const { carrier, limit, before } = query.value;
    const list = await ctx.projections.manifests.listForClient(accountOf(res).clientId, {
      limit: limit ?? MANIFEST_LIST_DEFAULT,
      ...(carrier !== undefined && carrier !== '' ? { carrier } : {}),
      ...(before !== undefined ? { before } : {}),
    });
    sendB(res, CODE_SUCCESS, B.success, list.map(manifestSummaryOf));
  });
}
