import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { environmentOf, STACK } from './description.ts';
import type { Placement } from './description.ts';

const ROOT = path.resolve(__dirname, '../../..');
const at: Placement = {
  kafka: 'k:1',
  pg: 'postgres://p',
  mongo: 'mongodb://m',
  pgSchema: 's',
  mongoDb: 'd',
  pgKeysSchema: 'ks',
  masterKeyFile: '/mk',
  host: 'h',
  port: 7,
  adminPort: 1007,
  gatewayUrl: 'http://g',
  sandboxUrl: 'http://sb',
};

test('describes every distributed composition root once (services/<name>/src/main.ts, except the embedded one)', () => {
  const roots = readdirSync(path.join(ROOT, 'services')).filter(
    (d) => d !== 'embedded' && existsSync(path.join(ROOT, 'services', d, 'src/main.ts')),
  );
  expect(STACK.map((s) => s.service).sort()).toEqual(roots.sort());
  for (const spec of STACK) expect(spec.script).toBe(`services/${spec.service}/src/main.ts`);
});

test('a service needs only services listed before it (so no cycle)', () => {
  const seen = new Set<string>();
  for (const spec of STACK) {
    for (const need of spec.needs)
      expect({ service: spec.service, need, before: seen.has(need) }).toEqual({
        service: spec.service,
        need,
        before: true,
      });
    seen.add(spec.service);
  }
});

test('addresses come from the placement only, and no address is also a setting', () => {
  for (const spec of STACK) {
    const env = environmentOf(spec.service, at);
    for (const [name, value] of Object.entries(spec.addresses(at))) {
      expect({ service: spec.service, name, setting: name in spec.settings }).toEqual({
        service: spec.service,
        name,
        setting: false,
      });
      expect(Object.values(at).map(String)).toContain(value);
      expect(env[name]).toBe(value);
    }
  }
  expect(environmentOf('order', at)).toMatchObject({
    PARCEL_LMX_URL: 'http://sb',
    HEALTH_PORT: '7',
    PARCEL_PG_SCHEMA: 's',
  });
  expect(environmentOf('carrier-sandbox', at)).toMatchObject({ PARCEL_CARRIER_CALLBACK_URL: 'http://g', PORT: '7' });
});
