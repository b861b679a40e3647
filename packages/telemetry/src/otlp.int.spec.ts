/**
 * OTLP/HTTP export configured by the environment, against a collector stand-in on the loopback.
 * The exporter loads `node:http` with a dynamic import, which Jest's CommonJS sandbox cannot run,
 * so the telemetry runs in a child Node process, as in the services.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const script = `
import { trace } from '@opentelemetry/api';
import { startTelemetry } from './src/sdk.ts';
const telemetry = startTelemetry({ serviceName: 'otlp-test' });
trace.getTracer('test').startSpan('exported span', { attributes: { 'parcel.command.type': 'CreateOrder' } }).end();
await telemetry.shutdown();
`;

test('OTEL_EXPORTER_OTLP_ENDPOINT: spans are POSTed as OTLP JSON to <endpoint>/v1/traces, flushed by shutdown', async () => {
  const received: Array<{ path: string | undefined; type: string | undefined; body: string }> = [];
  const collector = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`,
    };
    delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    delete env.OTEL_SDK_DISABLED;
    delete env.OTEL_SERVICE_NAME;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: path.join(__dirname, '..'),
      env,
      timeout: 20_000,
    });
  } finally {
    collector.close();
  }
  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({ path: '/v1/traces', type: 'application/json' });
  const body = received[0]!.body;
  expect(body).toContain('"exported span"');
  expect(body).toContain('"otlp-test"');
  expect(body).toContain('parcel.command.type');
});
