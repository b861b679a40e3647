/** Valid create-order bodies for the demo reference data. */
let counter = 0;
export const uniqueRef = (prefix = 'REF') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    custom_tracking_num: uniqueRef(),
    recipient_name: 'Tan Ah Kow',
    recipient_country: 'SG',
    recipient_phone: '6591234567',
    recipient_address: '1 Raffles Place, #20-01',
    sender_country: 'SG',
    client_size: '10,30,20',
    client_weight: 1.25,
    declared_value: 49.9,
    declared_value_currency: 'SGD',
    item: [
      { description: 'Paperback book', unitPrice: 24.95, quantity: 2, weight: 0.6, currency: 'SGD', totalValue: 49.9 },
    ],
    postal_code: '048616',
    ...overrides,
  };
}
