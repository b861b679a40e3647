import { describe } from '@jest/globals';
import { eventStoreConformance } from '@parcel-logistics/eventstore/conformance';
import { createKurrentDbEventStore } from './kurrentdb.ts';

// No KurrentDB server runs on the project's machines; the compose stack sets KURRENTDB_URL
// (e.g. kurrentdb://127.0.0.1:2113?tls=false). Streams are named per test, so one server serves every run.
const url = process.env.KURRENTDB_URL;

if (url) {
  eventStoreConformance('kurrentdb', async () => {
    const open = async () => createKurrentDbEventStore({ connectionString: url, onHandlerError: () => undefined });
    const store = await open();
    return { store, reopen: open, cleanup: () => store.close() };
  });
} else {
  describe.skip('event store conformance: kurrentdb (set KURRENTDB_URL to run)', () => {
    eventStoreConformance('kurrentdb', async () => {
      throw new Error('unreachable: skipped');
    });
  });
}
