/** @parcel-logistics/client: typed clients of the Parcel Logistics Service's two interfaces and of its operator API. */
export { InterfaceAClient } from './interfaceA.ts';
export { InterfaceBClient } from './interfaceB.ts';
export { AdminClient } from './admin.ts';
export type {
  AdminClientOptions,
  AdminError,
  AdminErrorKind,
  AdminFailure,
  AdminResult,
  AdminSuccess,
  AuditPageQuery,
} from './admin.ts';
export type { WebhookPage } from './interfaceB.ts';
export { signature, signedHeaders } from './signature.ts';
export type { SignedHeaders } from './signature.ts';
export { DEFAULT_RETRY } from './retry.ts';
export type { RetryOptions } from './retry.ts';
export type { CallOptions, ClientOptions, FetchLike, MutatingCallOptions } from './transport.ts';
export type { ApiError, ErrorKind, Failure, ResponseMeta, Result, Success } from './result.ts';
export type * from './types.ts';
