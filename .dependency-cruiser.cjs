/**
 * The house rules on imports, checked by dependency-cruiser in `npm test` (scripts/test.sh, after
 * lint) and by `npm run imports`. docs/architecture.md ("House rules") says why each exists.
 *
 * Workspace packages are imported by name (`@parcel-logistics/x`) through pnpm's symlinks in
 * node_modules. With `preserveSymlinks: false` each such import resolves to the package's real
 * sources (packages/x/src/…, services/x/src/…), through its package.json `exports` under the
 * `@parcel-logistics/source` condition (the client's), so the rules see every edge between
 * packages as an edge between folders of this repository.
 */

// Adapters: the packages that hold a driver and implement a port. The in-process bus is not one:
// it lives in the bus port (packages/bus/src/inProcess.ts, re-exported by the port's index), has no
// driver and is the embedded default, so every import of it is an import of the port.
const ADAPTERS =
  '^packages/(eventstore-sqlite|eventstore-postgres|eventstore-kurrentdb|projections-sqlite|projections-mongo|webhooks-sqlite|webhooks-postgres|accounts-sqlite|accounts-postgres|bus-kafka)/';

// Composition roots, read off the code: the places that choose the adapters and build the
// services on them.
// - packages/wiring: connects the distributed roots (Kafka, PostgreSQL, MongoDB, KurrentDB).
// - services/*/src/main.ts: each service's distributed process, through packages/wiring.
// - services/embedded: `npm start`, every service in one process on SQLite and the in-process bus.
// - scripts/, bench/ (and a package's own bench/), test/: start stacks, build stores to measure or test.
// - spec files anywhere: a test that builds a store imports one as a dev dependency.
// Not packages/stack: it describes and starts the distributed processes (whose main.ts wire the
// adapters) and imports no adapter itself, so it is held to the rule like any other package.
const ROOTS = [
  '^packages/wiring/',
  '^services/[^/]+/src/main\\.ts$',
  '^services/embedded/',
  '^scripts/',
  '^bench/',
  '^packages/[^/]+/bench/',
  '^test/',
  '\\.spec\\.ts$',
];

// Test code: the workspace's test/ and a package's own test/ (its `/testing` export included), and spec files.
const TEST_CODE = ['^test/', '^packages/[^/]+/test/', '^services/[^/]+/test/', '\\.spec\\.ts$'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circles anywhere, type-only ones included: a circle means two modules are one, or a third is missing.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workspace-imports-resolve',
      comment:
        'Every import of a workspace package resolves to its sources (it is listed in the importing ' +
        'package.json): an unresolved one would be invisible to the rules below.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, path: '^@parcel-logistics/' },
    },
    {
      name: 'no-service-to-service',
      comment:
        'A service never imports another service: they talk over the bus. Only services/embedded, the ' +
        'composition root of `npm start`, builds them all; and a spec file, which may start another ' +
        'service as a fixture (the order service to place the orders a tracking test needs, the LMX ' +
        'sandbox as the carrier), with that service as a devDependency only.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: ['^services/embedded/', '\\.spec\\.ts$'] },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'adapters-only-in-composition-roots',
      comment:
        'Only a composition root imports an adapter (or packages/wiring, which imports them all); ' +
        'everything else imports ports. An adapter may import its own package, not another adapter.',
      severity: 'error',
      from: { path: '^([^/]+/[^/]+)/', pathNot: ROOTS },
      to: { path: [ADAPTERS, '^packages/wiring/'], pathNot: '^$1/' },
    },
    {
      name: 'domain-imports-no-workspace-package',
      comment:
        'The domain is at the bottom: it imports no workspace package (@parcel-logistics/*), only its own ' +
        'modules.',
      severity: 'error',
      from: { path: '^packages/domain/' },
      // By path once resolved; by name when not (a workspace package the domain does not list).
      to: { path: ['^(packages|services)/', '^@parcel-logistics/'], pathNot: '^packages/domain/' },
    },
    {
      name: 'no-test-code-in-benches',
      comment:
        'Benches (bench/ and a package’s bench/) import no test code: what a bench and a test share lives ' +
        'in a package or beside the bench.',
      severity: 'error',
      from: { path: ['^bench/', '^packages/[^/]+/bench/'] },
      to: { path: TEST_CODE },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/', '^packages/client/src/generated/'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@parcel-logistics/source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'],
    },
  },
};
