/**
 * infra/containers/compose.local.yml as infra/containers/compose.ts resolves it with
 * docker-compose.yml (what podman-compose gets), without a container engine: the local images,
 * no KurrentDB and nothing waiting for it, the OTLP receiver in Jaeger's place, and the
 * `depends_on` the override replaces kept equal to docker-compose.yml's less KurrentDB, so that a
 * dependency added there is not lost here. The stack itself runs in composeRun.int.spec.ts.
 */
import { BASE_FILES, dependencies, merge, resolve } from '../infra/containers/compose.ts';
import { compose as base, dependencies as baseDependencies, names } from './support/compose.ts';

const local = resolve(BASE_FILES);
const services = local.services;

describe('docker-compose.yml with infra/containers/compose.local.yml', () => {
  test('every service but KurrentDB, which only the profile kurrentdb starts', () => {
    expect(Object.keys(services).sort()).toEqual(names.filter((n) => n !== 'kurrentdb').sort());
    expect(Object.keys(resolve(BASE_FILES, ['kurrentdb']).services).sort()).toEqual([...names].sort());
    expect(base.services.kurrentdb).toBeDefined();
  });

  test('nothing waits for KurrentDB; otherwise the same dependencies as docker-compose.yml', () => {
    for (const [name, s] of Object.entries(services)) {
      const expected = Object.fromEntries(
        Object.entries(baseDependencies(name))
          .filter(([target]) => target !== 'kurrentdb')
          .map(([target, dep]) => [target, dep.condition]),
      );
      expect({ name, depends_on: dependencies(s) }).toEqual({ name, depends_on: expected });
    }
  });

  test('the infrastructure runs the images of infra/containers/build.sh; ours build FROM its Node', () => {
    expect(services.kafka?.image).toBe('localhost/parcel-kafka:local');
    expect(services['kafka-init']?.image).toBe('localhost/parcel-kafka:local');
    expect(services.postgres?.image).toBe('localhost/parcel-postgres:local');
    expect(services.mongo?.image).toBe('localhost/parcel-mongo:local');
    expect(services.jaeger?.image).toBe('localhost/parcel-otlp:local');
    for (const [name, s] of Object.entries(services))
      if (s.build) {
        expect({ name, build: s.build }).toMatchObject({
          name,
          build: { dockerfile: 'Dockerfile', args: { NODE_IMAGE: 'localhost/parcel-node:local' } },
        });
        expect(s.image).toBe('${PARCEL_IMAGE:-parcel-logistics:dev}');
      }
  });

  test('the services still export to jaeger:4318, now the OTLP receiver, which has its own health check', () => {
    const env = services['gateway-1']?.environment as Record<string, string>;
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://jaeger:4318');
    expect(JSON.stringify(services.jaeger?.healthcheck?.test)).toContain('4318/healthz');
    expect(JSON.stringify(services.mongo?.healthcheck?.test)).not.toContain('mongosh');
  });

  test('relative paths become absolute: podman-compose reads the file from elsewhere', () => {
    const init = services['kafka-init']?.volumes?.[0] as string;
    expect(init).toMatch(/^\/.*\/infra\/compose\/create-topics\.sh:\/parcel\/create-topics\.sh:ro$/);
    expect((services.order?.build as { context: string }).context).toMatch(/^\//);
  });
});

describe('the merge of compose.ts', () => {
  test('mappings merge key by key; other values replace', () => {
    expect(merge({ a: { x: 1, y: [1, 2] }, b: 1 }, { a: { y: [3], z: 2 } })).toEqual({
      a: { x: 1, y: [3], z: 2 },
      b: 1,
    });
  });
});
