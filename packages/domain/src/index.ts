export * from './time.ts';
export * from './trackingNumber.ts';
export * from './statusCatalogue.ts';
export * from './parcel/decider.ts';
export * from './parcel/parcelView.ts';
export * from './parcel/labelRules.ts';
export * from './reference/claim.ts';
export * from './parcel/routing.ts';
