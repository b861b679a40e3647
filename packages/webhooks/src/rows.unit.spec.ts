import { describe, expect, it } from '@jest/globals';
import {
  attemptColumns,
  attemptOf,
  endpointColumns,
  endpointOfRow,
  messageOf,
  replayColumns,
  replayOf,
} from './rows.ts';
import type { EndpointRow } from './rows.ts';

const t0 = 1_763_791_509_000;
const sqlite: EndpointRow = {
  client_id: 'c1',
  id: 'we_1',
  url: 'https://hooks.example/we_1',
  event_types: '["ParcelRegistered"]',
  description: '',
  enabled: 1,
  disabled_reason: '',
  secrets: `[{"secret":"whsec_a","expiresAt":null},{"secret":"whsec_b","expiresAt":${t0}}]`,
  created_at: t0,
  updated_at: t0 + 1,
};

describe('webhook rows read the same from either driver', () => {
  it('an endpoint: SQLite 0/1 and numbers, pg booleans and bigint text', () => {
    const pg: EndpointRow = { ...sqlite, enabled: true, created_at: String(t0), updated_at: String(t0 + 1) };
    const endpoint = endpointOfRow(sqlite);
    expect(endpointOfRow(pg)).toEqual(endpoint);
    expect(endpoint).toMatchObject({ enabled: true, createdAt: new Date(t0), updatedAt: new Date(t0 + 1) });
    expect(endpoint.secrets).toEqual([
      { secret: 'whsec_a', expiresAt: null },
      { secret: 'whsec_b', expiresAt: new Date(t0) },
    ]);
    expect(endpointOfRow({ ...sqlite, enabled: 0 }).enabled).toBe(false);
    expect(endpointOfRow({ ...pg, enabled: false }).enabled).toBe(false);
  });

  it('an endpoint written and read back is the same, whichever way the flag is written', () => {
    const endpoint = endpointOfRow({
      ...sqlite,
      event_types: '["ParcelRegistered","LabelGenerated"]',
      enabled: 0,
      disabled_reason: 'failing since 2026-11-20',
    });
    const [url, event_types, description, enabled, disabled_reason, secrets, created_at, updated_at] = endpointColumns(
      endpoint,
      (on) => (on ? 1 : 0),
    );
    const row = {
      client_id: 'c1',
      id: 'we_1',
      url,
      event_types,
      description,
      enabled,
      disabled_reason,
      secrets,
      created_at,
      updated_at,
    };
    expect(endpointOfRow(row)).toEqual(endpoint);
    expect(endpointColumns(endpoint, (on) => on)[3]).toBe(false);
  });

  it('a message, an attempt and a replay', () => {
    const message = {
      endpoint_id: 'we_1',
      event_id: 'ev_1',
      position: 42,
      body: '{}',
      attempts: 2,
      next_attempt_at: t0,
      failing_since: null,
      state: 'failed',
      queued_at: t0,
      settled_at: t0 + 5,
    };
    const pgMessage = {
      ...message,
      position: '42',
      next_attempt_at: String(t0),
      queued_at: String(t0),
      settled_at: String(t0 + 5),
    };
    expect(messageOf(pgMessage)).toEqual(messageOf(message));
    expect(messageOf(message)).toMatchObject({
      position: 42,
      attempts: 2,
      failingSince: null,
      settledAt: new Date(t0 + 5),
    });

    const attempt = {
      seq: 7,
      endpoint_id: 'we_1',
      event_id: 'ev_1',
      attempt: 1,
      at: t0,
      duration_ms: 12,
      status: null,
      answer: '',
      reason: 'no answer',
    };
    expect(attemptOf({ ...attempt, seq: '7', at: String(t0) })).toEqual(attemptOf(attempt));
    expect(attemptOf({ ...attempt, status: 500 }).status).toBe(500);

    const replay = {
      id: 'rp_1',
      endpoint_id: 'we_1',
      since: t0,
      requested_at: t0,
      status: 'done',
      position: 9,
      scanned: 3,
      queued: 1,
      finished_at: t0,
    };
    const pgReplay = { ...replay, since: String(t0), requested_at: String(t0), position: '9', finished_at: String(t0) };
    expect(replayOf(pgReplay)).toEqual(replayOf(replay));
    expect(replayOf({ ...replay, finished_at: null })).toMatchObject({ position: 9, finishedAt: null });
  });

  it('an attempt and a replay written and read back are the same (the duration in whole milliseconds)', () => {
    const attempt = { endpointId: 'we_1', eventId: 'ev_1', attempt: 2, at: new Date(t0), durationMs: 11.6 };
    const sent = { ...attempt, status: 502, answer: 'bad gateway', reason: 'HTTP 502' };
    const [endpoint_id, event_id, n, at, duration_ms, status, answer, reason] = attemptColumns(sent);
    const stored = { seq: 3, endpoint_id, event_id, attempt: n, at, duration_ms, status, answer, reason };
    expect(attemptOf(stored)).toEqual({ ...sent, seq: 3, durationMs: 12 });

    const replay = { id: 'rp_1', endpointId: 'we_1', since: new Date(t0 - 5), requestedAt: new Date(t0) };
    for (const progress of [
      { status: 'running' as const, position: 4, scanned: 2, queued: 0, finishedAt: null },
      { status: 'done' as const, position: 9, scanned: 3, queued: 1, finishedAt: new Date(t0 + 9) },
    ]) {
      const [id, endpoint_id, since, requested_at, status, position, scanned, queued, finished_at] = replayColumns({
        ...replay,
        ...progress,
      });
      const row = { id, endpoint_id, since, requested_at, status, position, scanned, queued, finished_at };
      expect(replayOf(row)).toEqual({ ...replay, ...progress });
    }
  });
});
