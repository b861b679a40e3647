/**
 * The distributed wiring of the webhook benchmark: the stack of @parcel-logistics/stack as a run of
 * its own (two gateways, two order, one tracking, one label process, two webhook service instances
 * and the LMX sandbox), on the Kafka, PostgreSQL and mongo-java-server of infra/up.sh. The CPU
 * read is the whole stack's (bench/stackCpu.ts: every service, both JVMs and PostgreSQL), not the
 * load generator's.
 */
import { requireInfra, runStack } from '@parcel-logistics/stack';
import { cpuBetween, readCpu } from './processCpu.ts';
import { stackProcesses } from './stackCpu.ts';
import type { DeliveryFigures } from './webhookLoad.ts';

export async function distributedWiring(
  env: Record<string, string>,
  measure: (gateway: string, cpuSince: () => () => number) => Promise<DeliveryFigures>,
): Promise<DeliveryFigures> {
  const infra = requireInfra();
  const stack = runStack({ env });
  try {
    await stack.startAll();
    const groups = stackProcesses(stack, infra);
    const cpuSince = () => {
      const before = readCpu(groups);
      return () => [...cpuBetween(before, readCpu(groups)).values()].reduce((total, s) => total + s.ms, 0);
    };
    return await measure(stack.gateways[0]!, cpuSince);
  } finally {
    await stack.stop();
  }
}
