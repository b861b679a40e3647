import { singaporeTime } from './callback.ts';
import { createShipmentBook } from './shipments.ts';

const reg = (trackingNumber: string, instruction = '') => ({
  trackingNumber,
  carrier: 'LMX' as const,
  recipientCountry: 'SG',
  postalCode: '048616',
  recipientName: 'A',
  instruction,
});

test('partner numbers are distinct per parcel and stable per tracking number', () => {
  const book = createShipmentBook(() => new Date(0));
  const a = book.register(reg('A'))!;
  expect(book.register(reg('A'))).toBe(a);
  expect(book.register(reg('B'))!.partnerTrackingNo).not.toBe(a.partnerTrackingNo);
});

test('triggers are read from anywhere in the instruction', () => {
  const book = createShipmentBook(() => new Date(0));
  expect(book.register(reg('N', 'x[sandbox:no-partner]y'))).toBeNull();
  expect(book.register(reg('P', 'call first [sandbox:picked-up]'))).toMatchObject({
    pickedUp: true,
    cancelRejects: false,
  });
  expect(book.register(reg('R', '[sandbox:cancel-reject] please'))).toMatchObject({
    pickedUp: false,
    cancelRejects: true,
  });
});

test('event times default to Singapore time with its offset', () => {
  expect(singaporeTime(new Date('2026-11-22T06:05:09.789Z'))).toBe('2026-11-22T14:05:09+08:00');
  expect(singaporeTime(new Date('2026-12-31T16:00:00Z'))).toBe('2027-01-01T00:00:00+08:00');
});
