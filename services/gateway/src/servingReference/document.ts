/** The OpenAPI document of this gateway: its operations, completed by the domain's facts and the reference data. */
import { buildOpenApiDocument } from '@parcel-logistics/contracts/api';
import { STATUS, TRACKING_NUMBER_FORMAT } from '@parcel-logistics/domain';
import type { ReferenceData } from '@parcel-logistics/reference-data';

export const API_VERSION = '1.0.0';

export const openApiDocument = (ref: ReferenceData) =>
  buildOpenApiDocument({ ref, trackingNumber: TRACKING_NUMBER_FORMAT, statusCodes: STATUS, version: API_VERSION });
