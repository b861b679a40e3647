/**
 * The distributed wiring of the webhook benchmark: the cluster of the e2e suites (two gateways, two
 * order, one tracking, one label process and the LMX sandbox) with two webhook service instances,
 * on the Kafka, PostgreSQL and mongo-java-server of infra/up.sh. The CPU read is the whole stack's
 * (bench/stackCpu.ts: every service, both JVMs and PostgreSQL), not the load generator's.
 */
import { Cluster, requireInfra } from '../test/e2e/support/cluster.ts';
import { cpuBetween, readCpu } from './processCpu.ts';
import { stackProcesses } from './stackCpu.ts';
import type { DeliveryFigures } from './webhookLoad.ts';

export async function distributedWiring(
  env: Record<string, string>,
  measure: (gateway: string, cpuSince: () => () => number) => Promise<DeliveryFigures>,
): Promise<DeliveryFigures> {
  const infra = requireInfra();
  const cluster = new Cluster({ ...env, LOG_LEVEL: 'info' });
  try {
    await cluster.startAll();
    await Promise.all([cluster.start('webhook'), cluster.start('webhook')]);
    const groups = stackProcesses(cluster, infra);
    const cpuSince = () => {
      const before = readCpu(groups);
      return () => [...cpuBetween(before, readCpu(groups)).values()].reduce((total, s) => total + s.ms, 0);
    };
    return await measure(cluster.gateways[0]!, cpuSince);
  } finally {
    await cluster.stop();
  }
}
