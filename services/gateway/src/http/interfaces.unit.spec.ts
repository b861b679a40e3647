/**
 * A refused request of interface B is answered by one helper, failB: code 1, the message, empty
 * data, HTTP 200 unless the operation documents another status. No route writes that answer by hand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import { failB } from './interfaces.ts';

function recorder(): { res: Response; sent: { status?: number; body?: unknown } } {
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  return { res: res as unknown as Response, sent };
}

test('failB answers code 1, the message and empty data, with HTTP 200 by default', () => {
  const { res, sent } = recorder();
  failB(res, 'tracking_num is required');
  expect(sent).toEqual({ status: 200, body: { code: 1, message: 'tracking_num is required', data: [] } });
});

test('failB answers the status it is given', () => {
  const { res, sent } = recorder();
  failB(res, 'Api not found', 404);
  expect(sent).toEqual({ status: 404, body: { code: 1, message: 'Api not found', data: [] } });
});

test('no gateway source writes the plain B failure by hand instead of calling failB', () => {
  const src = path.resolve(import.meta.dirname, '..');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && f !== path.join('http', 'interfaces.ts'),
  );
  expect(files.length).toBeGreaterThan(20);
  const byHand = files.filter((f) =>
    /sendB\(\s*res\s*,\s*CODE_FAILURE\s*,[^;]*,\s*\[\]\s*[,)]/.test(readFileSync(path.join(src, f), 'utf8')),
  );
  expect(byHand).toEqual([]);
});
