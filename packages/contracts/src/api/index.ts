/** The HTTP surface as data (`@parcel-logistics/contracts/api`): operations, answer schemas, and the OpenAPI document built from them. */
export * from './schemas.ts';
export * from './operation.ts';
export * from './operations.ts';
export * from './adminOperations.ts';
export * from './openapi.ts';
export { DEFAULT_WEBHOOK_MAX_ENDPOINTS, WEBHOOK_SAMPLE } from './webhookOperations.ts';
export { IMPORT_SAMPLE } from './importOperations.ts';
export { MANIFEST_SAMPLE } from './manifestOperations.ts';
