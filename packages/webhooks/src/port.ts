/**
 * The webhook store port: each account's endpoints with their signing secrets. The
 * embedded wiring keeps them in SQLite (@parcel-logistics/webhooks-sqlite); delivery state per endpoint
 * (checkpoint, attempts, failing-since) comes with delivery and lives beside them.
 */
import type { WebhookEventType } from '@parcel-logistics/contracts';

export interface SigningSecret {
  /** `whsec_` plus base64 of the key bytes (Standard Webhooks). */
  secret: string;
  /** When a rotated-out secret stops signing; null for the current one. */
  expiresAt: Date | null;
}

export interface WebhookEndpoint {
  id: string;
  clientId: string;
  url: string;
  eventTypes: WebhookEventType[];
  description: string;
  enabled: boolean;
  /** Why delivery disabled it; empty while enabled or when its owner disabled it. */
  disabledReason: string;
  /** The current secret first; rotated-out ones follow until they expire. */
  secrets: SigningSecret[];
  createdAt: Date;
  updatedAt: Date;
}

export type CreateOutcome = 'created' | 'limit';

export interface WebhookStore {
  /** Adds the endpoint unless its account already has `maxPerAccount` (checked and written at once). */
  create(endpoint: WebhookEndpoint, maxPerAccount: number): Promise<CreateOutcome>;
  /** The account's endpoints, oldest first. */
  list(clientId: string): Promise<WebhookEndpoint[]>;
  /** One endpoint of the account; another account's id reads as missing. */
  get(clientId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** An endpoint by id alone, for delivery (never for an account's request). */
  find(id: string): Promise<WebhookEndpoint | undefined>;
  /** Replaces the stored endpoint of the same account and id; false when there is none. */
  update(endpoint: WebhookEndpoint): Promise<boolean>;
  /** false when the account has no endpoint of this id. */
  delete(clientId: string, id: string): Promise<boolean>;
  close(): Promise<void>;
}
