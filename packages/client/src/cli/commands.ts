/** The commands of `parcelctl`: what each takes, its help, and the calls it makes. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signedHeaders } from '../signature.ts';
import type { InterfaceBClient } from '../interfaceB.ts';
import type { Result } from '../result.ts';
import type { MutatingCallOptions } from '../transport.ts';
import type { CancelResult, CreateLabelRequest, Order } from '../types.ts';
import { EXIT, mapData, printJson, report, UsageError } from './output.ts';
import { webhook } from './webhookCommand.ts';
import { admin } from './adminCommand.ts';
import { importOrders } from './importCommand.ts';
import { manifest } from './manifestCommand.ts';
import type { Command, Context } from './command.ts';

const IDEMPOTENCY_HELP =
  '  --idempotency-key <key>  the Idempotency-Key to send (default: a new UUID, the same on every retry)';

const mutating = (context: Context): MutatingCallOptions => ({ idempotencyKey: context.options['idempotency-key'] });

function exactlyOne(context: Context, what: string): string {
  const [only, ...more] = context.args;
  if (only === undefined || more.length > 0) throw new UsageError(`give exactly one ${what}`);
  return only;
}

function atLeastOne(context: Context, what: string): string[] {
  if (context.args.length === 0) throw new UsageError(`give at least one ${what}`);
  return context.args;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('give a file, or pipe the order to standard input');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readOrder(source: string): Promise<Order> {
  const where = source === '-' ? 'standard input' : source;
  let text: string;
  try {
    text = source === '-' ? await readStdin() : await readFile(source, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${where}: ${(error as Error).message}`);
  }
  let order: unknown;
  try {
    order = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${where} is not JSON: ${(error as Error).message}`);
  }
  if (typeof order !== 'object' || order === null || Array.isArray(order))
    throw new UsageError(`${where} holds no JSON object`);
  // The server checks every field; the command line passes the order on as it is.
  return order as Order;
}

const createOrder: Command = {
  name: 'create-order',
  usage: 'create-order [file|-]',
  summary: 'create an order from JSON (a file, or standard input)',
  details: `Reads one order (the Order schema of docs/openapi.json) from the file, or from standard
input when the file is - or left out, and prints the answer's data:
{custom_tracking_num, wmg_tracking_num, date_time, status, error}.

Options:
${IDEMPOTENCY_HELP}`,
  options: ['idempotency-key'],
  async run(context) {
    const [source = '-', ...more] = context.args;
    if (more.length > 0) throw new UsageError('give one file at most');
    const order = await readOrder(source);
    return report(await context.b().createOrder(order, mutating(context)));
  },
};

const status: Command = {
  name: 'status',
  usage: 'status <tracking...>',
  summary: 'the status of one parcel, or of several',
  details: `With one number, prints its status record (query-status); an unknown number is the
business error "fail" (exit 1). With several, prints {success, errors} (query-multi-status):
unknown numbers are listed in errors, and the command succeeds.`,
  options: [],
  async run(context) {
    const numbers = atLeastOne(context, 'tracking number');
    const b = context.b();
    if (numbers.length === 1) return report(await b.queryStatus(numbers[0]!));
    return report(await b.queryMultiStatus(numbers));
  },
};

const FORMATS = ['pdf', 'html', 'zpl', 'cn23'] as const;
type Format = (typeof FORMATS)[number];
const DIRECTIONS = ['horizontal', 'vertical'] as const;

const label: Command = {
  name: 'label',
  usage: 'label <tracking> [--format pdf|html|zpl|cn23] [--out <file>]',
  summary: 'a shipping label (pdf, html, zpl) or the CN23 customs declaration (cn23)',
  details: `Writes the document to the file given with --out and prints {tracking_num, format, file,
bytes}; without --out, writes the document itself to standard output. pdf, html and zpl are the
shipping label of interface B; cn23 is interface A's create-label, which records LB_GN on the
parcel and needs the parcel's origin and destination countries. It issues a new bearer token of
the account, which supersedes the account's older ones.

Options:
  --format <format>        pdf (default), html, zpl or cn23
  --out <file>             where to write the document
  --origin <country>       cn23: the parcel's sender_country, e.g. SG
  --destination <country>  cn23: the parcel's recipient_country
  --direction <direction>  cn23: vertical (portrait) or horizontal (landscape, the server's default)
${IDEMPOTENCY_HELP.replace('the Idempotency-Key', 'cn23: the Idempotency-Key')}`,
  options: ['format', 'out', 'origin', 'destination', 'direction', 'idempotency-key'],
  async run(context) {
    const trackingNum = exactlyOne(context, 'tracking number');
    const { format = 'pdf', out, origin, destination, direction } = context.options;
    if (!FORMATS.includes(format as Format)) throw new UsageError(`--format is one of ${FORMATS.join(', ')}`);
    const cn23Only = (['origin', 'destination', 'direction', 'idempotency-key'] as const).filter(
      (o) => context.options[o] !== undefined,
    );
    if (format !== 'cn23' && cn23Only.length > 0) throw new UsageError(`--${cn23Only[0]} goes with --format cn23 only`);

    const b = () => context.b();
    let rendered;
    switch (format as Format) {
      case 'pdf':
        rendered = mapData(await b().getShippingLabel(trackingNum), (d) => Buffer.from(d.base64, 'base64'));
        break;
      case 'html':
        rendered = mapData(await b().getShippingLabelHtml(trackingNum), (d) => Buffer.from(d.html, 'utf8'));
        break;
      case 'zpl':
        rendered = mapData(await b().getShippingLabelZpl(trackingNum), (d) => Buffer.from(d.zpl, 'utf8'));
        break;
      case 'cn23': {
        if (origin === undefined || destination === undefined)
          throw new UsageError('--format cn23 needs --origin and --destination');
        if (direction !== undefined && !DIRECTIONS.includes(direction as (typeof DIRECTIONS)[number])) {
          throw new UsageError(`--direction is one of ${DIRECTIONS.join(', ')}`);
        }
        const request: CreateLabelRequest = {
          Barcode: trackingNum,
          LabelType: 'CN23',
          Origin: origin,
          Destination: destination,
        };
        if (direction !== undefined) request.Direction = direction as CreateLabelRequest['Direction'];
        rendered = mapData(await context.a().createLabel(request, mutating(context)), (d) =>
          Buffer.from(d.Base64, 'base64'),
        );
        break;
      }
    }
    return report(rendered, async (bytes) => {
      if (out === undefined) {
        process.stdout.write(bytes);
        return;
      }
      try {
        await writeFile(out, bytes);
      } catch (error) {
        throw new UsageError(`cannot write ${out}: ${(error as Error).message}`);
      }
      printJson({ tracking_num: trackingNum, format, file: path.resolve(out), bytes: bytes.length });
    });
  },
};

const LABELS_FORMATS = ['pdf', 'zpl'] as const;
const LAYOUTS = ['label', 'a4-4up'] as const;

const labels: Command = {
  name: 'labels',
  usage: 'labels <tracking...> [--format pdf|zpl] [--layout label|a4-4up] [--out <file>]',
  summary: 'the shipping labels of up to 100 parcels in one PDF or ZPL document',
  details: `Writes one document with the labels of the numbers given, in their order, to the file given
with --out and prints {labels, errors, format, file, bytes}; without --out, writes the document itself
to standard output and {labels, errors} to standard error. Each labelled parcel records LB_GN;
numbers that cannot be labelled are listed in errors with the reason. When none can be, no file is
written and the command fails (exit 1).

Options:
  --format <format>        pdf (default) or zpl
  --layout <layout>        pdf: label (default; one 4 x 6 in page a label) or a4-4up (four an A4 page)
  --out <file>             where to write the document
${IDEMPOTENCY_HELP}`,
  options: ['format', 'layout', 'out', 'idempotency-key'],
  async run(context) {
    const numbers = atLeastOne(context, 'tracking number');
    const { format = 'pdf', layout, out } = context.options;
    if (!LABELS_FORMATS.includes(format as (typeof LABELS_FORMATS)[number]))
      throw new UsageError(`--format is one of ${LABELS_FORMATS.join(', ')}`);
    if (layout !== undefined && !LAYOUTS.includes(layout as (typeof LAYOUTS)[number]))
      throw new UsageError(`--layout is one of ${LAYOUTS.join(', ')}`);
    if (format === 'zpl' && layout === 'a4-4up') throw new UsageError('--layout a4-4up goes with --format pdf only');
    const document = {
      format: format as (typeof LABELS_FORMATS)[number],
      ...(layout === undefined ? {} : { layout: layout as (typeof LAYOUTS)[number] }),
    };
    const result = await context.b().getShippingLabels(numbers, document, mutating(context));
    return report(result, async ({ base64, zpl, labels: labelled, errors }) => {
      if (labelled.length === 0) {
        process.stderr.write(
          `${JSON.stringify({ error: { kind: 'business', message: 'no number could be labelled', data: { labels: labelled, errors } } })}\n`,
        );
        throw new NoneLabelled();
      }
      const bytes = base64 !== undefined ? Buffer.from(base64, 'base64') : Buffer.from(zpl ?? '', 'utf8');
      if (out === undefined) {
        process.stdout.write(bytes);
        process.stderr.write(`${JSON.stringify({ labels: labelled, errors })}\n`);
        return;
      }
      try {
        await writeFile(out, bytes);
      } catch (error) {
        throw new UsageError(`cannot write ${out}: ${(error as Error).message}`);
      }
      printJson({ labels: labelled, errors, format, file: path.resolve(out), bytes: bytes.length });
    }).catch((error: unknown) => {
      if (error instanceof NoneLabelled) return EXIT.business;
      throw error;
    });
  },
};

/** No number could be labelled: there is no document to write. */
class NoneLabelled extends Error {}

type Described = Pick<Command, 'name' | 'usage' | 'summary' | 'details'>;

/** A change to each of the tracking numbers given, each answered in {success, errors}. */
const perNumber = (
  command: Described,
  call: (b: InterfaceBClient, numbers: string[], options: MutatingCallOptions) => Promise<Result<CancelResult>>,
): Command => ({
  ...command,
  details: `${command.details}

Options:
${IDEMPOTENCY_HELP}`,
  options: ['idempotency-key'],
  run: async (context) => report(await call(context.b(), atLeastOne(context, 'tracking number'), mutating(context))),
});

/** A read of the one thing the command line names (`what`). */
const lookUp = <T>(
  command: Described,
  what: string,
  call: (b: InterfaceBClient, arg: string) => Promise<Result<T>>,
): Command => ({
  ...command,
  options: [],
  run: async (context) => report(await call(context.b(), exactlyOne(context, what))),
});

const cancel = perNumber(
  {
    name: 'cancel',
    usage: 'cancel <tracking...>',
    summary: 'cancel parcels (accounts that may cancel)',
    details: `Prints {success, errors}: the numbers cancelled, and the others with the reason in remarks
(the command succeeds even when every number failed; look at errors).`,
  },
  (b, numbers, options) => b.cancelOrders(numbers, options),
);

const erase = perNumber(
  {
    name: 'erase',
    usage: 'erase <tracking...>',
    summary: 'erase the personal data of parcels, for good',
    details: `Prints {success, errors}: the numbers whose personal data is erased (now or before), and the
others with the reason in remarks. The parcels stay (status, history, tracking page); their labels
are refused from then on.`,
  },
  (b, numbers, options) => b.erasePersonalData(numbers, options),
);

const stations = lookUp(
  {
    name: 'stations',
    usage: 'stations <postcode>',
    summary: 'lockers and collection points within 5 km of a postal code',
    details: 'Prints the stations, nearest first (at most 20); an unknown postal code prints [].',
  },
  'postal code',
  (b, postcode) => b.getStations(postcode),
);

const barcode = lookUp(
  {
    name: 'barcode',
    usage: 'barcode <reference>',
    summary: 'the tracking number of your own reference (custom_tracking_num)',
    details: 'Prints {barcode}; a reference the account never used is the business error "Order Not Found!" (exit 1).',
  },
  'reference',
  (b, reference) => b.getBarcode(reference),
);

const sign: Command = {
  name: 'sign',
  usage: 'sign',
  summary: 'print interface B\'s signed headers, one "name: value" line each',
  details: `Signs with a fresh seed (valid for 10 minutes), in the format of curl's -H @file:
  curl -H @<(parcelctl sign) "http://localhost:8080/v1/openapi/station/get-stations?postcode=238858"`,
  options: [],
  async run(context) {
    if (context.args.length > 0) throw new UsageError('sign takes no arguments');
    const { apiName, apiKey } = context.credentials();
    const lines = Object.entries(signedHeaders(apiName, apiKey)).map(([name, value]) => `${name}: ${value}\n`);
    process.stdout.write(lines.join(''));
    return EXIT.ok;
  },
};

export const COMMANDS: readonly Command[] = [
  createOrder,
  importOrders,
  status,
  label,
  labels,
  cancel,
  erase,
  stations,
  barcode,
  manifest,
  webhook,
  sign,
  admin,
];
