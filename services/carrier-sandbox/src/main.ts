import { createMetrics, gaugeOnScrape } from '@parcel-logistics/telemetry';
import { createCarrierSandbox } from './sandbox.ts';

const env = process.env;
const metrics = createMetrics();
const sandbox = createCarrierSandbox({
  callbackUrl: env.PARCEL_CARRIER_CALLBACK_URL || 'http://127.0.0.1:8080',
  secret: env.LMX_SECRET || 'lmx-sandbox-secret',
  metrics,
});
gaugeOnScrape(
  metrics,
  'parcel_sandbox_shipments',
  'Shipments the LMX sandbox holds (registered, not forgotten), read on scrape.',
  () => sandbox.state.shipments.size,
);
const { url } = await sandbox.listen(Number(env.PORT || 8090), env.HOST || '0.0.0.0');
console.log(JSON.stringify({ msg: 'LMX carrier sandbox listening', url }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
