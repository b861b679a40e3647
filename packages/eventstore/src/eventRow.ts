import type { RecordedEvent } from './port.ts';

/** An events table row as the SQL adapters read it (PostgreSQL returns the numbers as text). */
export interface EventRow {
  global_position: number | string;
  stream_name: string;
  revision: number | string;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

export const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamName: row.stream_name,
  type: row.type,
  revision: Number(row.revision),
  globalPosition: Number(row.global_position),
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  recordedAt: row.recorded_at,
});
