/**
 * What a command of `parcelctl` is and what it is given. Apart from the list of commands
 * (commands.ts), so that a command kept in a file of its own (webhookCommand.ts, adminCommand.ts) takes the types
 * without importing the list.
 */
import type { AdminClient } from '../admin.ts';
import type { InterfaceAClient } from '../interfaceA.ts';
import type { InterfaceBClient } from '../interfaceB.ts';

/** Options only some commands take (the global ones are in main.ts). */
export type CommandOption =
  | 'idempotency-key'
  | 'format'
  | 'out'
  | 'layout'
  | 'origin'
  | 'destination'
  | 'direction'
  | 'description'
  | 'limit'
  | 'cursor'
  | 'event'
  | 'admin-url'
  | 'admin-token'
  | 'client-id'
  | 'weight-unit'
  | 'service-types'
  | 'can-cancel'
  | 'batch-create'
  | 'rate-limit'
  | 'retention-days'
  | 'before'
  | 'wait'
  | 'csv'
  | 'carrier';

export interface Context {
  args: string[];
  options: Partial<Record<CommandOption, string>>;
  b(): InterfaceBClient;
  a(): InterfaceAClient;
  credentials(): { apiName: string; apiKey: string };
  /** The operator API's client, from --admin-url and --admin-token or PARCEL_ADMIN_URL and PARCEL_ADMIN_TOKEN. */
  admin(): AdminClient;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  /** More of the help: what the command prints, and its options. */
  details: string;
  options: readonly CommandOption[];
  run(context: Context): Promise<number>;
}
