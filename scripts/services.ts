/**
 * `npm run services` (after scripts/services.sh brought up the infrastructure): the distributed
 * stack of packages/stack on this machine, on fixed ports (the gateways on PORT and the ports after
 * it, default 8080 and 8081; the LMX sandbox on PARCEL_SANDBOX_PORT, default 8090), the others'
 * health ports free. Each process's output goes to .infra/services/<name>.log. Ctrl-C or SIGTERM
 * stops the processes, not the infrastructure. The state is in the PostgreSQL schema
 * PARCEL_PG_SCHEMA and the MongoDB database PARCEL_MONGO_DB (both `parcel` unless set), the
 * personal data's keys in PARCEL_PG_KEYS_SCHEMA (`parcel_keys`), wrapped by the master key in
 * .infra/master.key (made on first run) or the file PARCEL_MASTER_KEY_FILE names.
 */
import path from 'node:path';
import { masterKeyFile, requireInfra, Stack, STACK } from '../packages/stack/src/index.ts';

const env = process.env;
const root = path.resolve(import.meta.dirname, '..');
const logDir = path.join(root, '.infra/services');
const stack = new Stack({
  infra: requireInfra(),
  stores: {
    pgSchema: env.PARCEL_PG_SCHEMA || 'parcel',
    pgKeysSchema: env.PARCEL_PG_KEYS_SCHEMA || 'parcel_keys',
    mongoDb: env.PARCEL_MONGO_DB || 'parcel',
  },
  // The master key of the personal data's keys: made once, kept with the infrastructure's state.
  masterKeyFile: masterKeyFile(env.PARCEL_MASTER_KEY_FILE || path.join(root, '.infra/master.key')),
  ports: { gateway: Number(env.PORT || 8080), sandbox: Number(env.PARCEL_SANDBOX_PORT || 8090) },
  env: env.LOG_LEVEL ? { LOG_LEVEL: env.LOG_LEVEL } : {},
  logDir,
});

let stopping: Promise<void> | undefined;
const stop = (code: number) => {
  stopping ??= stack.stop().then(() => process.exit(code));
  return stopping;
};
// Ctrl-C reaches the services too (one process group); they stop once, whichever signal comes first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(0));

try {
  await stack.startAll();
} catch (err) {
  console.error(`the stack did not start: ${(err as Error).message}`);
  await stop(1);
}
const listed = (p: { service: string }) => STACK.findIndex((s) => s.service === p.service);
for (const p of [...stack.processes].sort((a, b) => listed(a) - listed(b) || a.name.localeCompare(b.name))) {
  console.log(`${p.name.padEnd(18)} ${p.url.padEnd(24)} log: ${path.relative(root, p.log!)}`);
  void p.exited.then((code) => {
    if (!stopping) console.error(`${p.name} exited (${code ?? 'signal'}); its log: ${path.relative(root, p.log!)}`);
  });
}
console.log(
  `gateways: ${stack.gateways.join(' ')}; Ctrl-C stops the services (the infrastructure keeps running: npm run infra:down)`,
);
