/** `parcelctl import <file.csv>`: a CSV import of orders, and with --wait its progress until it is finished. */
import { readFile } from 'node:fs/promises';
import type { ImportResult } from '../types.ts';
import type { Command } from './command.ts';
import { report, UsageError } from './output.ts';

/** One line of progress: how many of the accepted rows are created, and how many rows were refused. */
const progressLine = (p: ImportResult): string =>
  `import ${p.import_id}: ${p.state}, ${p.created} of ${p.accepted} created, ${p.rejected} of ${p.rows} rows rejected`;

export const importOrders: Command = {
  name: 'import',
  usage: 'import <file.csv> [--wait] [--idempotency-key <key>]',
  summary: 'import orders from a CSV file (one order per row)',
  details: `Sends the CSV file (a header row of create-order's field names, item rows as item[0].description,
...; see docs/bulk.md and docs/import-template.csv) and prints the answer's data: {import_id, state,
rows, accepted, rejected, created, accepted_at, errors}, where errors lists each refused row with
its number and create-order's message. The orders are created after the answer.

Options:
  --wait                   read the import each second until it is finished, showing its progress
                           on standard error, then print its final state
  --idempotency-key <key>  the Idempotency-Key to send (default: a new UUID, the same on every retry)`,
  options: ['wait', 'idempotency-key'],
  async run(context) {
    const [file, ...more] = context.args;
    if (file === undefined || more.length > 0) throw new UsageError('give exactly one CSV file');
    let csv: string;
    try {
      csv = await readFile(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    const b = context.b();
    const started = await b.importOrders(csv, { idempotencyKey: context.options['idempotency-key'] });
    if (!started.ok || context.options.wait === undefined) return report(started);

    // On a terminal one line rewritten in place; otherwise a line per change.
    const tty = process.stderr.isTTY === true;
    let last = '';
    const show = (p: ImportResult) => {
      const line = progressLine(p);
      if (line === last) return;
      last = line;
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    };
    show(started.data);
    const finished = await b.waitForImport(started.data.import_id, { onProgress: show });
    if (tty) process.stderr.write('\n');
    return report(finished);
  },
};
