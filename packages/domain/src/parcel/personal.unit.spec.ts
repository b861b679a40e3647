/** The one list of what is personal: split off, nothing personal left in the clear part, put back unchanged. */
import { sampleDelivered, sampleParcelOrder } from '../../test/fixtures.ts';
import type { ParcelOrder } from './order.ts';
import { splitCarrierEventPersonal, splitPersonal, withPersonal } from './personal.ts';

const marked: ParcelOrder = sampleParcelOrder({
  instruction: 'MARK-instruction leave with Mdm MARK',
  recipient: {
    name: 'MARK-rname',
    country: 'SG',
    phone: '6500000001',
    address: 'MARK-raddress #01-01',
    postalCode: '048616',
    state: 'MARK-rstate',
    city: 'MARK-rcity',
    email: 'mark-r@example.com',
  },
  sender: {
    country: 'MY',
    name: 'MARK-sname',
    phone: '6500000002',
    address: 'MARK-saddress',
    postalCode: '50450',
    city: 'MARK-scity',
    email: 'mark-s@example.com',
  },
});
const markers = ['MARK', 'mark-', '6500000001', '6500000002', '048616', '50450'];

test('the clear part of an order holds no personal value, and keeps countries, weights, values and items', () => {
  const { clear } = splitPersonal(marked);
  const text = JSON.stringify(clear);
  for (const m of markers) expect({ m, found: text.includes(m) }).toEqual({ m, found: false });
  expect(clear.recipient).toEqual({ country: 'SG', name: '', phone: '', address: '' });
  expect(clear.sender).toEqual({ country: 'MY' });
  expect(clear.weight).toEqual(marked.weight);
  expect(clear.declaredValue).toEqual(marked.declaredValue);
  expect(clear.lines).toEqual(marked.lines);
  expect(clear.reference).toBe(marked.reference);
});

test('an order split and put back together is the order', () => {
  const { clear, personal } = splitPersonal(marked);
  expect(withPersonal(clear, personal)).toEqual(marked);
  const plain = sampleParcelOrder();
  const parts = splitPersonal(plain);
  expect(withPersonal(parts.clear, parts.personal)).toEqual(plain);
});

test('a carrier event keeps only the public place of its location; remarks, signer and proof of delivery are personal', () => {
  const { data } = sampleDelivered('PX1', new Date('2026-11-23T02:00:00Z'), {
    location: '1 Raffles Place',
    remarks: 'Left with Mdm Wong',
    receiveBy: 'Mdm Wong',
    pod: ['pod/1.jpg'],
  });
  const { clear, personal } = splitCarrierEventPersonal(data);
  // Everything but the personal fields stays as it was: number, carrier, codes and times.
  expect(clear).toEqual({ ...data, location: '', remarks: '', receiveBy: '', pod: [] });
  expect(clear).toMatchObject({ trackingNumber: 'PX1', statusCode: 'DL_DL' });
  expect(personal).toEqual({
    location: '1 Raffles Place',
    remarks: 'Left with Mdm Wong',
    receiveBy: 'Mdm Wong',
    pod: ['pod/1.jpg'],
  });
  expect(splitCarrierEventPersonal({ ...data, location: 'SG' }).clear.location).toBe('SG');
});
