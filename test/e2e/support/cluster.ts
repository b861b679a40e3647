/**
 * The e2e suites' cluster: the distributed stack of @parcel-logistics/stack as a run of its own
 * (free ports, a PostgreSQL schema and MongoDB database per run, dropped by `stop()`) on the Kafka,
 * PostgreSQL and mongo-java-server that `npm test` started (infra/up.sh). E2E_LOG_LEVEL sets the
 * processes' LOG_LEVEL, E2E_ECHO echoes their output.
 */
import { runStack } from '@parcel-logistics/stack';
import type { ServiceName, ServiceProcess, Stack } from '@parcel-logistics/stack';

export { requireInfra, waitReady } from '@parcel-logistics/stack';
export type { ServiceName, ServiceProcess } from '@parcel-logistics/stack';

export class Cluster {
  private readonly stack: Stack;

  /** `shared`: a suite's settings, for every process; `logDir`: where each process's output is kept. */
  constructor(shared: Record<string, string> = {}, options: { logDir?: string } = {}) {
    this.stack = runStack({
      env: { LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info', ...shared },
      echo: Boolean(process.env.E2E_ECHO),
      ...options,
    });
  }

  /** The run's schema and database name. */
  get runId(): string {
    return this.stack.stores.pgSchema;
  }

  get processes(): ServiceProcess[] {
    return this.stack.processes;
  }

  get sandboxUrl(): string {
    return this.stack.sandboxUrl;
  }

  get gateways(): string[] {
    return this.stack.gateways;
  }

  /**
   * The stack's processes with the suite's variant of its counts. No webhook instance unless
   * asked: the suites that deliver webhooks start theirs one at a time, since which one holds the
   * fan-out matters to them.
   */
  startAll(variant: { gateways?: number; orders?: number; webhooks?: number } = {}): Promise<void> {
    return this.stack.startAll({ gateway: variant.gateways, order: variant.orders, webhook: variant.webhooks ?? 0 });
  }

  /** One more process of `name`, with `extra` over its environment. */
  start(name: ServiceName, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    return this.stack.start(name, extra);
  }

  of(name: ServiceName): ServiceProcess[] {
    return this.stack.of(name);
  }

  kill(proc: ServiceProcess): Promise<void> {
    return this.stack.kill(proc);
  }

  stop(): Promise<void> {
    return this.stack.stop();
  }
}
