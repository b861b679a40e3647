/**
 * The order as the domain speaks of it: camelCase, grouped by party, money and weight as typed
 * values, the size as dimensions largest first, the postal code normalised. The request body of
 * interface B is mapped onto it at the edge (packages/contracts).
 */

export type WeightUnit = 'kg' | 'g' | 'lb';

export interface Money {
  amount: number;
  currency: string;
}

export interface Weight {
  value: number;
  unit: WeightUnit;
}

/** A non-negative decimal as the client wrote it (`20.50`): kept as text, so labels and downstream show it as sent. */
export type Decimal = string;

/** Centimetres, largest side first. */
export interface Dimensions {
  unit: 'cm';
  length: Decimal;
  width: Decimal;
  height: Decimal;
}

export interface Recipient {
  name: string;
  country: string;
  phone: string;
  address: string;
  /** The digits left after stripping every non-digit. */
  postalCode?: string;
  state?: string;
  city?: string;
  email?: string;
}

export interface Sender {
  country: string;
  name?: string;
  phone?: string;
  address?: string;
  postalCode?: string;
  city?: string;
  email?: string;
}

export interface OrderLine {
  description: string;
  quantity: number;
  unitPrice: Money;
  weight: Weight;
  totalValue: Money;
  countryOfOrigin?: string;
  hsCode?: string;
  productUrl?: string;
}

/** A locker the client chose (locker_type A) as sent; the nearest one (B) is assigned by the domain. */
export interface LockerChoice {
  type: 'A' | 'B';
  station?: { zipcode: string; name: string; address: string; addressDetail: string; distance: number; code: string };
}

export interface ParcelOrder {
  reference: string;
  recipient: Recipient;
  sender: Sender;
  dimensions: Dimensions;
  weight: Weight;
  declaredValue: Money;
  lines: OrderLine[];
  serviceType?: string;
  /** Kept only for US and SG destinations. */
  serviceCode?: string;
  instruction?: string;
  cashOnDelivery?: Money;
  supplier?: { name?: string; gstn?: string };
  gst?: { amount?: number; currency?: string; paid?: 'Y' | 'N' };
  incoterm?: 'DDU' | 'DDP';
  locker?: LockerChoice;
}

/** The station a parcel goes to: chosen by the client (locker_type A) or the nearest one (B). */
export interface AssignedStation {
  code: string;
  name: string;
  address: string;
  addressDetail: string;
  zipcode: string;
  /** Metres from the order's postal code (locker_type B) or as sent (locker_type A). */
  distance: number;
}
