import { toParcelOrder } from '@parcel-logistics/contracts';
import type { ParcelOrder, ValidOrder, WeightUnit } from '@parcel-logistics/contracts';

export const sampleOrder = (overrides: Partial<ValidOrder> = {}): ValidOrder => ({
  custom_tracking_num: 'REF-1',
  recipient_name: 'Tan Ah Kow',
  recipient_country: 'SG',
  recipient_phone: '6591234567',
  recipient_address: '1 Raffles Place',
  sender_country: 'SG',
  client_size: '30,20,10',
  client_weight: 1.5,
  declared_value: 20,
  declared_value_currency: 'SGD',
  item: [{ description: 'Book', unitPrice: 20, quantity: 1, weight: 1.5, currency: 'SGD', totalValue: 20 }],
  postal_code: '048616',
  ...overrides,
});

/** The sample order in the domain's words, as a create-order command carries it. */
export const sampleParcelOrder = (overrides: Partial<ValidOrder> = {}, unit: WeightUnit = 'kg'): ParcelOrder =>
  toParcelOrder(sampleOrder(overrides), unit);
