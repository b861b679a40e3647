/**
 * Interface B (`/v1/openapi/...`), every request signed with the account's name and key. Method
 * names are the operation ids of docs/openapi.json.
 */
import type { Result } from './result.ts';
import { signedHeaders } from './signature.ts';
import { asking, changing, getting, mutation, queryOf, Transport } from './transport.ts';
import type { Call, CallOptions, ClientOptions, MutatingCallOptions } from './transport.ts';
import type {
  BarcodeResult,
  CancelResult,
  CreateOrderResult,
  CreateOrdersResult,
  HtmlLabel,
  ImportResult,
  ManifestResult,
  ManifestSummary,
  LabelsResult,
  MultiStatusResult,
  Order,
  PdfLabel,
  ShippingLabelsOptions,
  Station,
  StatusRecordB,
  CreateWebhookEndpointRequest,
  RedeliveredWebhookMessage,
  UpdateWebhookEndpointRequest,
  WebhookAttemptsPage,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookMessagesPage,
  WebhookReplay,
  ZplLabel,
} from './types.ts';

/** A page of the delivery log: at most `limit` (1 to 100, default 20), after `cursor` (a `next_cursor` answered before). */
export interface WebhookPage {
  limit?: number;
  cursor?: string;
}

export class InterfaceBClient {
  readonly #transport: Transport;
  readonly #apiName: string;
  readonly #apiKey: string;

  constructor(options: ClientOptions) {
    this.#transport = new Transport(options, 'B');
    this.#apiName = options.apiName;
    this.#apiKey = options.apiKey;
  }

  /** B1: creates an order; its retries carry one Idempotency-Key, so a lost answer never creates two parcels. */
  createOrder(order: Order, options?: MutatingCallOptions): Promise<Result<CreateOrderResult>> {
    return this.#send(changing('/v1/openapi/order/create-order', order, options));
  }

  /** B2: creates orders in a batch (answers `Api not found` unless the server runs with PARCEL_BATCH_CREATE=on). */
  createOrders(orders: Order[], options?: MutatingCallOptions): Promise<Result<CreateOrdersResult>> {
    return this.#send(changing('/v1/openapi/order/create-orders', { orders }, options));
  }

  /**
   * Imports orders from a CSV file (docs/bulk.md): every row validated as create-order validates a
   * body; the answer comes once the accepted rows are recorded, and the orders are created after it.
   * Its retries carry one Idempotency-Key, so a lost answer never makes two imports.
   */
  importOrders(csv: string, options?: MutatingCallOptions): Promise<Result<ImportResult>> {
    return this.#send({ method: 'POST', path: '/v1/openapi/order/import-orders', csv, ...mutation(options) });
  }

  /** An import's state, counts and rejected rows. */
  getImport(importId: string, options?: CallOptions): Promise<Result<ImportResult>> {
    return this.#send(getting('/v1/openapi/order/get-import', { import_id: importId }, options));
  }

  /**
   * Reads the import every `intervalMs` (1 000 by default) until it is finished, or until a read
   * fails; `onProgress` sees each answer. Answers the last read.
   */
  async waitForImport(
    importId: string,
    options: CallOptions & { intervalMs?: number; onProgress?: (progress: ImportResult) => void } = {},
  ): Promise<Result<ImportResult>> {
    const { intervalMs = 1000, onProgress, ...call } = options;
    for (;;) {
      const read = await this.getImport(importId, call);
      if (!read.ok) return read;
      onProgress?.(read.data);
      if (read.data.state === 'finished') return read;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  /**
   * Closes the account's parcels of `carrier` that it registered and that no manifest holds yet
   * (cancelled ones left out) on an end-of-day manifest: its PDF (Base64) and CSV (docs/bulk.md).
   */
  createManifest(carrier: string, options?: MutatingCallOptions): Promise<Result<ManifestResult>> {
    return this.#send(changing('/v1/openapi/manifest/create-manifest', { carrier }, options));
  }

  /** A manifest made before, with its documents. */
  getManifest(manifestId: string, options?: CallOptions): Promise<Result<ManifestResult>> {
    return this.#send(getting('/v1/openapi/manifest/get-manifest', { manifest_id: manifestId }, options));
  }

  /** The account's manifests, newest first, without documents; `before`: the last id of the page before. */
  listManifests(
    query: { carrier?: string; limit?: number; before?: string } = {},
    options?: CallOptions,
  ): Promise<Result<ManifestSummary[]>> {
    return this.#send(getting('/v1/openapi/manifest/list-manifests', queryOf(query), options));
  }

  /** B3: one parcel's status; an unknown number is a business error `fail` whose data is a QueryStatusMiss. */
  queryStatus(trackingNum: string, options?: CallOptions): Promise<Result<StatusRecordB>> {
    return this.#send(getting('/v1/openapi/order/query-status', { tracking_num: trackingNum }, options));
  }

  /** B4: the status of many parcels; unknown numbers are listed in `errors`, and the call still succeeds. */
  queryMultiStatus(trackingNums: string[], options?: CallOptions): Promise<Result<MultiStatusResult>> {
    return this.#send(asking('/v1/openapi/order/query-multi-status', { tracking_nums: trackingNums }, options));
  }

  /** B5: lockers and collection points within 5 km of a postal code, nearest first. */
  getStations(postcode: string, options?: CallOptions): Promise<Result<Station[]>> {
    return this.#send(getting('/v1/openapi/station/get-stations', { postcode }, options));
  }

  /** B6: cancels parcels; each number is answered in `success` or `errors`. */
  cancelOrders(trackingNums: string[], options?: MutatingCallOptions): Promise<Result<CancelResult>> {
    return this.#perNumber('/v1/openapi/order/cancel-orders', trackingNums, options);
  }

  /**
   * Erases the personal data of parcels for good (names, phones, addresses, e-mails); each number is
   * answered in `success` (erased, now or before) or `errors` (`No Record(s)`).
   */
  erasePersonalData(trackingNums: string[], options?: MutatingCallOptions): Promise<Result<CancelResult>> {
    return this.#perNumber('/v1/openapi/order/erase-personal-data', trackingNums, options);
  }

  /** A change to each of 1 to 100 parcels, each answered in `success` or `errors`. */
  #perNumber(path: Call['path'], trackingNums: string[], options?: MutatingCallOptions): Promise<Result<CancelResult>> {
    return this.#send(changing(path, { tracking_nums: trackingNums }, options));
  }

  /** B7: the shipping label as a Base64 PDF. */
  getShippingLabel(trackingNum: string, options?: CallOptions): Promise<Result<PdfLabel>> {
    return this.#label('/v1/openapi/order-shipping-label/get-shipping-label', trackingNum, options);
  }

  /** B8: the shipping label as an HTML document. */
  getShippingLabelHtml(trackingNum: string, options?: CallOptions): Promise<Result<HtmlLabel>> {
    return this.#label('/v1/openapi/order-shipping-label/get-shipping-label-html', trackingNum, options);
  }

  /** B9: the shipping label in ZPL II. */
  getShippingLabelZpl(trackingNum: string, options?: CallOptions): Promise<Result<ZplLabel>> {
    return this.#label('/v1/openapi/order-shipping-label/get-shipping-label-zpl', trackingNum, options);
  }

  /**
   * The shipping labels of 1 to 100 parcels in one document: a Base64 PDF (`base64`; one 4 x 6 in page
   * a label, or four an A4 page with `layout: 'a4-4up'`) or ZPL (`zpl`). Each labelled parcel records
   * LB_GN; the numbers that cannot be labelled are in `errors`. Retries carry one Idempotency-Key.
   */
  getShippingLabels(
    trackingNums: string[],
    document: ShippingLabelsOptions = {},
    options?: MutatingCallOptions,
  ): Promise<Result<LabelsResult>> {
    return this.#send(
      changing(
        '/v1/openapi/order-shipping-label/get-shipping-labels',
        { tracking_nums: trackingNums, ...document },
        options,
      ),
    );
  }

  /** B10: the platform tracking number of your own reference (custom_tracking_num). */
  getBarcode(customTrackingNum: string, options?: CallOptions): Promise<Result<BarcodeResult>> {
    return this.#send(getting('/v1/openapi/order/get-barcode', { custom_tracking_num: customTrackingNum }, options));
  }

  /** Creates a webhook endpoint; the answer holds its signing secret, shown this once. */
  createWebhookEndpoint(
    endpoint: CreateWebhookEndpointRequest,
    options?: MutatingCallOptions,
  ): Promise<Result<WebhookEndpointWithSecret>> {
    return this.#send(changing('/v1/openapi/webhook/create-endpoint', endpoint, options));
  }

  /** The account's webhook endpoints, oldest first, without secrets. */
  listWebhookEndpoints(options?: CallOptions): Promise<Result<WebhookEndpoint[]>> {
    return this.#send(getting('/v1/openapi/webhook/list-endpoints', undefined, options));
  }

  /** One webhook endpoint, without its secret. */
  getWebhookEndpoint(endpointId: string, options?: CallOptions): Promise<Result<WebhookEndpoint>> {
    return this.#send(getting('/v1/openapi/webhook/get-endpoint', { endpoint_id: endpointId }, options));
  }

  /** Changes the fields given (url, event_types, description, enabled). */
  updateWebhookEndpoint(
    change: UpdateWebhookEndpointRequest,
    options?: MutatingCallOptions,
  ): Promise<Result<WebhookEndpoint>> {
    return this.#send(changing('/v1/openapi/webhook/update-endpoint', change, options));
  }

  /** A new signing secret, shown this once; the old one keeps signing beside it for 24 h. */
  rotateWebhookSecret(endpointId: string, options?: MutatingCallOptions): Promise<Result<WebhookEndpointWithSecret>> {
    return this.#onEndpoint('/v1/openapi/webhook/rotate-secret', endpointId, options);
  }

  /** Queues a signed WebhookTest message for the endpoint; `event_id` is its webhook-id. */
  sendWebhookTestEvent(
    endpointId: string,
    options?: MutatingCallOptions,
  ): Promise<Result<{ endpoint_id: string; event_id: string }>> {
    return this.#onEndpoint('/v1/openapi/webhook/send-test-event', endpointId, options);
  }

  deleteWebhookEndpoint(endpointId: string, options?: MutatingCallOptions): Promise<Result<{ endpoint_id: string }>> {
    return this.#onEndpoint('/v1/openapi/webhook/delete-endpoint', endpointId, options);
  }

  /** The endpoint's messages, newest first; pass the answer's `next_cursor` as `cursor` for the next page. */
  listWebhookMessages(
    endpointId: string,
    page: WebhookPage = {},
    options?: CallOptions,
  ): Promise<Result<WebhookMessagesPage>> {
    return this.#logPage(
      '/v1/openapi/webhook/list-messages',
      endpointId,
      { limit: page.limit, cursor: page.cursor },
      options,
    );
  }

  /** The endpoint's delivery attempts, newest first, or one message's with `eventId`. */
  listWebhookAttempts(
    endpointId: string,
    page: WebhookPage & { eventId?: string } = {},
    options?: CallOptions,
  ): Promise<Result<WebhookAttemptsPage>> {
    return this.#logPage('/v1/openapi/webhook/list-attempts', endpointId, page, options);
  }

  /** Sends a message again with the same webhook-id; one still pending answers `already_pending: true`. */
  redeliverWebhookMessage(
    endpointId: string,
    eventId: string,
    options?: MutatingCallOptions,
  ): Promise<Result<RedeliveredWebhookMessage>> {
    return this.#send(
      changing('/v1/openapi/webhook/redeliver', { endpoint_id: endpointId, event_id: eventId }, options),
    );
  }

  /** Sends the account's events recorded since `since` (ISO 8601 with a zone, or a Date) to the endpoint again. */
  replayWebhookEndpoint(
    endpointId: string,
    since: string | Date,
    options?: MutatingCallOptions,
  ): Promise<Result<WebhookReplay>> {
    const body = { endpoint_id: endpointId, since: since instanceof Date ? since.toISOString() : since };
    return this.#send(changing('/v1/openapi/webhook/replay', body, options));
  }

  /** How far a replay is: `requested`, `running` or `done`, with its counts. */
  getWebhookReplay(endpointId: string, replayId: string, options?: CallOptions): Promise<Result<WebhookReplay>> {
    return this.#send(
      getting('/v1/openapi/webhook/get-replay', { endpoint_id: endpointId, replay_id: replayId }, options),
    );
  }

  /** A page of an endpoint's delivery log, or of one message's part of it (`eventId`). */
  #logPage<T>(
    path: Call['path'],
    endpointId: string,
    { eventId, limit, cursor }: WebhookPage & { eventId?: string },
    options: CallOptions | undefined,
  ): Promise<Result<T>> {
    return this.#send(getting(path, queryOf({ endpoint_id: endpointId, event_id: eventId, limit, cursor }), options));
  }

  /** A change to one webhook endpoint, named by its id alone. */
  #onEndpoint<T>(path: Call['path'], endpointId: string, options: MutatingCallOptions | undefined): Promise<Result<T>> {
    return this.#send(changing(path, { endpoint_id: endpointId }, options));
  }

  #label<T>(path: Call['path'], trackingNum: string, options: CallOptions | undefined): Promise<Result<T>> {
    return this.#send(getting(path, { tracking_num: trackingNum }, options));
  }

  #send<T>(call: Call): Promise<Result<T>> {
    return this.#transport.send<T>({
      ...call,
      auth: () => signedHeaders(this.#apiName, this.#apiKey, this.#transport.now()),
    });
  }
}
