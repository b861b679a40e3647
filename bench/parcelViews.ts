/**
 * Parcel views built by hand, for the label benchmark (bench/labels.bench.ts); the label tests'
 * fixtures (services/label/test/fixtures.ts) build theirs on these.
 */
import type { OrderItem, StoredParcelView, ValidOrder } from '@parcel-logistics/contracts';

export const item = (over: Partial<OrderItem> = {}): OrderItem => ({
  description: 'Cotton T-shirt',
  unitPrice: 12.5,
  quantity: 2,
  weight: 0.4,
  currency: 'SGD',
  totalValue: 25,
  countryOfOrigin: 'CN',
  itemHSCode: '610910',
  ...over,
});

function order(over: Partial<ValidOrder>): ValidOrder {
  return {
    custom_tracking_num: 'ORD-1001',
    recipient_name: 'Tan Wei Ming',
    recipient_country: 'SG',
    recipient_phone: '6591234567',
    recipient_address: '10 Bayfront Avenue #12-03',
    sender_country: 'SG',
    client_size: '30,20,10',
    client_weight: 1.25,
    declared_value: 25,
    declared_value_currency: 'SGD',
    item: [item()],
    postal_code: '018956',
    ...over,
  };
}

export function view(
  trackingNumber: string,
  over: Partial<ValidOrder>,
  extra: Partial<StoredParcelView> = {},
): StoredParcelView {
  const o = order(over);
  return {
    trackingNumber,
    clientId: 'demo',
    customTrackingNum: o.custom_tracking_num,
    revision: 1,
    status: 'active',
    serviceType: o.service_type ?? 'LMD',
    carrier: 'LMX',
    weightUnit: 'kg',
    order: o,
    partnerTrackingNo: '',
    partnerName: '',
    createdAt: '2026-11-22T14:05:09+08:00',
    activities: [],
    ...extra,
  };
}

/** Japan, with Chinese, Thai and Korean names. */
export const jpNonLatin = view(
  'PJ8H6G4F2D0S9A7',
  {
    recipient_country: 'JP',
    recipient_name: '山田 太郎 สมชาย ใจดี 김민준',
    recipient_address: '東京都千代田区丸の内1丁目9-1 グラントウキョウノースタワー 10階',
    recipient_city: '千代田区',
    postal_code: '1000005',
    sender_name: '北京商贸有限公司',
    sender_address: 'กรุงเทพมหานคร ถนนสุขุมวิท 123 / 서울특별시 중구 세종대로 110',
    sender_country: 'CN',
    declared_value_currency: 'JPY',
    declared_value: 3000,
    item: [
      item({
        description: '陶瓷茶杯 เซรามิก 도자기 찻잔',
        currency: 'JPY',
        totalValue: 3000,
        unitPrice: 1500,
        countryOfOrigin: 'CN',
      }),
    ],
  },
  { carrier: 'GLX' },
);
