/** Spec "Tracking page": a carrier's location is shown to the public only as a place that identifies no one. */
import { publicPlaceOf } from './publicPlace.ts';

test.each([
  ['SG', 'SG'],
  ['sg', 'SG'],
  ['Singapore', 'Singapore'],
  ['  SINGAPORE  HUB ', 'Singapore hub'],
  ['kuala lumpur', 'Kuala Lumpur'],
  ['Changi Hub', 'Changi Hub'],
])('a public place %j is shown as %j', (location, shown) => {
  expect(publicPlaceOf(location)).toBe(shown);
});

test.each([
  '1 Raffles Place',
  '7 Secret Lane, #05-11',
  'Singapore 048616',
  'Blk 123 Ang Mo Kio Ave 3',
  'Changi <script>alert(1)</script> Hub',
  'Left with Mdm Wong at Singapore hub',
  '',
])('free text %j is not shown at all', (location) => {
  expect(publicPlaceOf(location)).toBe('');
});
