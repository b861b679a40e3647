/** The validated Order of create-order (interface B), field names as in the specification. */

export interface OrderItem {
  description: string;
  unitPrice: number;
  quantity: number;
  weight: number;
  currency: string;
  totalValue: number;
  countryOfOrigin?: string;
  itemHSCode?: string;
  productURL?: string;
}

export interface LockerStationInput {
  zipcode: string;
  station_name: string;
  station_address: string;
  address_detail: string;
  distance: number;
  station_code: string;
}

export interface ValidOrder {
  custom_tracking_num: string;
  recipient_name: string;
  recipient_country: string;
  recipient_phone: string;
  recipient_address: string;
  sender_country: string;
  /** `L,W,H` reordered largest first, numbers as sent, no spaces. */
  client_size: string;
  /** In the account's weight unit. */
  client_weight: number;
  declared_value: number;
  declared_value_currency: string;
  item: OrderItem[];
  /** Digits left after stripping every non-digit. */
  postal_code?: string;
  recipient_state?: string;
  recipient_city?: string;
  recipient_email?: string;
  sender_name?: string;
  sender_phone?: string;
  sender_address?: string;
  sender_postal_code?: string;
  sender_city?: string;
  sender_email?: string;
  service_type?: string;
  /** Kept only for US and SG destinations (ignored elsewhere, as specified). */
  service_code?: string;
  instruction?: string;
  cash?: number;
  cash_currency?: string;
  supplier_name?: string;
  supplier_gstn?: string;
  total_gst_amount?: number;
  gst_currency?: string;
  gst_paid?: 'Y' | 'N';
  incoterm_type?: 'DDU' | 'DDP';
  locker_type?: 'A' | 'B';
  locker_station?: LockerStationInput;
}
