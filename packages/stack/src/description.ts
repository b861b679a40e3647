/**
 * The distributed stack, described once: which processes run (each service's composition root
 * and how many of it) and the environment each gets. `npm run services`, the e2e suites and the
 * benchmarks start it through ./processes.ts; docker-compose.yml is written by hand and
 * test/compose.int.spec.ts checks that it agrees.
 */

export type ServiceName = 'gateway' | 'carrier-sandbox' | 'order' | 'tracking' | 'label' | 'webhook';

/** How many processes of a service run, where that differs from the description. */
export type Counts = Partial<Record<ServiceName, number>>;

/**
 * Where a process runs and what it reaches. Each launcher has its own: fixed or free ports on
 * 127.0.0.1 and per-run store names here, the containers' host names in compose.
 */
export interface Placement {
  kafka: string;
  pg: string;
  mongo: string;
  pgSchema: string;
  mongoDb: string;
  /** The PostgreSQL schema of the personal data's keys, apart from the events'. */
  pgKeysSchema: string;
  /** The file holding the master key (base64 of 32 bytes) that wraps those keys. */
  masterKeyFile: string;
  host: string;
  /** The process's own port: HTTP for the gateway and the sandbox, health and metrics for the others; 0 for any free one. */
  port: number;
  /** A gateway's operator API port (on only with PARCEL_ADMIN_TOKEN); 0 for any free one. */
  adminPort: number;
  /** The gateway the sandbox pushes carrier events to. */
  gatewayUrl: string;
  /** The LMX sandbox the order service registers parcels with. */
  sandboxUrl: string;
}

export interface ServiceSpec {
  service: ServiceName;
  /** Processes of it in the stack. */
  count: number;
  /** Its composition root, from the repository's root: `node <script>`. */
  script: string;
  /** Services whose address it is given: they start first. */
  needs: ServiceName[];
  /** Variables with the same value wherever the stack runs, compose included. */
  settings: Readonly<Record<string, string>>;
  /** Variables that say where things are, from the launcher's placement. */
  addresses(at: Placement): Record<string, string>;
}

/** What `loadDistributed` of @parcel-logistics/config connects to, and the master key of the personal data's keys. */
const stores = (at: Placement): Record<string, string> => ({
  PARCEL_KAFKA_BROKERS: at.kafka,
  PARCEL_PG_URL: at.pg,
  PARCEL_PG_SCHEMA: at.pgSchema,
  PARCEL_PG_KEYS_SCHEMA: at.pgKeysSchema,
  PARCEL_MASTER_KEY_FILE: at.masterKeyFile,
  PARCEL_MONGO_URL: at.mongo,
  PARCEL_MONGO_DB: at.mongoDb,
});
const listening = (at: Placement) => ({ HOST: at.host, PORT: String(at.port) });
const health = (at: Placement) => ({ HOST: at.host, HEALTH_PORT: String(at.port) });

// A bounded old space keeps each process's memory flat (V8 otherwise sizes it from the machine's memory).
const NODE = { NODE_OPTIONS: '--max-old-space-size=256' };
const parcel = (service: ServiceName) => ({ ...NODE, LOG_LEVEL: 'info', OTEL_SERVICE_NAME: `parcel-${service}` });
const script = (service: ServiceName) => `services/${service}/src/main.ts`;

export const STACK: readonly ServiceSpec[] = [
  {
    service: 'gateway',
    count: 2,
    script: script('gateway'),
    needs: [],
    settings: parcel('gateway'),
    // The operator API on a port of its own (on only with PARCEL_ADMIN_TOKEN).
    addresses: (at) => ({ ...stores(at), ...listening(at), PARCEL_ADMIN_PORT: String(at.adminPort) }),
  },
  {
    service: 'carrier-sandbox',
    count: 1,
    script: script('carrier-sandbox'),
    needs: ['gateway'],
    // The sandbox reads no LOG_LEVEL; LMX_SECRET is the eventSecret of LMX in packages/reference-data/data/carriers.json.
    settings: { ...NODE, OTEL_SERVICE_NAME: 'parcel-carrier-sandbox', LMX_SECRET: 'lmx-sandbox-secret' },
    addresses: (at) => ({ ...listening(at), PARCEL_CARRIER_CALLBACK_URL: at.gatewayUrl }),
  },
  {
    service: 'order',
    count: 2,
    script: script('order'),
    needs: ['carrier-sandbox'],
    settings: parcel('order'),
    addresses: (at) => ({ ...stores(at), ...health(at), PARCEL_LMX_URL: at.sandboxUrl }),
  },
  {
    service: 'tracking',
    count: 1,
    script: script('tracking'),
    needs: [],
    settings: parcel('tracking'),
    addresses: (at) => ({ ...stores(at), ...health(at) }),
  },
  {
    service: 'label',
    count: 1,
    script: script('label'),
    needs: [],
    settings: parcel('label'),
    addresses: (at) => ({ ...stores(at), ...health(at) }),
  },
  {
    service: 'webhook',
    count: 2,
    script: script('webhook'),
    needs: [],
    settings: parcel('webhook'),
    addresses: (at) => ({ ...stores(at), ...health(at) }),
  },
];

export function specOf(service: ServiceName): ServiceSpec {
  const spec = STACK.find((s) => s.service === service);
  if (!spec) throw new Error(`the stack has no service "${service}"`);
  return spec;
}

/** A process's environment from the description: its settings, then its addresses. */
export const environmentOf = (service: ServiceName, at: Placement): Record<string, string> => {
  const spec = specOf(service);
  return { ...spec.settings, ...spec.addresses(at) };
};
