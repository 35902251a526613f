import { z } from 'zod';
import type { Address } from '../store/orders.js';

/**
 * Addresses as the routes of orders and customers read and write them (docs/platform.md §4 `shipping_address`,
 * `customer.default_address`; §11 `addresses[]`), and the flat `billing_*` fields both records carry.
 */

export const text = (max: number) => z.string({ error: 'must be a string' }).max(max, { error: `must be at most ${max} characters` });

/** An address as the order record has it (docs/platform.md §4 `shipping_address`, `customer.default_address`). */
export const AddressBody = z.object(
  {
    name: text(200).nullish(),
    // The platform's own POST /orders body names the person in two fields (docs/platform.md §12); kept as `name`.
    first_name: text(100).nullish(),
    last_name: text(100).nullish(),
    address: text(200).nullish(),
    number: text(50).nullish(),
    floor: text(100).nullish(),
    locality: text(200).nullish(),
    city: text(200).nullish(),
    province: text(200).nullish(),
    zipcode: text(50).nullish(),
    country: text(100).nullish(),
    phone: text(50).nullish(),
  },
  { error: 'must be an address object' },
);
export type AddressInput = z.infer<typeof AddressBody>;

export function addressOf(body: AddressInput): Address {
  const parts = [body.first_name, body.last_name].map((p) => p?.trim() ?? '').filter((p) => p !== '');
  return {
    name: body.name ?? parts.join(' '),
    address: body.address ?? '',
    number: body.number ?? '',
    floor: body.floor ?? null,
    locality: body.locality ?? null,
    city: body.city ?? '',
    province: body.province ?? '',
    zipcode: body.zipcode ?? '',
    country: body.country ?? '',
    phone: body.phone ?? null,
  };
}

const BILLING_FIELDS = ['name', 'phone', 'address', 'number', 'floor', 'locality', 'zipcode', 'city', 'province', 'country'] as const;
export const billingBody = {
  ...(Object.fromEntries(BILLING_FIELDS.map((f) => [`billing_${f}`, text(200).nullish()])) as Record<
    `billing_${(typeof BILLING_FIELDS)[number]}`,
    z.ZodOptional<z.ZodNullable<z.ZodString>>
  >),
  // The record's flat `billing_address` is the street; a create may also send the whole address as an object, as the
  // platform's own Postman body does (docs/platform.md §12).
  billing_address: z.union([text(200), AddressBody], { error: 'must be the street (a string) or an address object' }).nullish(),
};

/**
 * The billing address of a create: the `billing_address` object, or the flat `billing_*` fields (which, beside an
 * object, override its fields); undefined when none was given.
 */
export function billingOfBody(body: Record<string, unknown>): Address | undefined {
  const object = body.billing_address !== null && typeof body.billing_address === 'object' ? (body.billing_address as AddressInput) : undefined;
  const given = BILLING_FIELDS.filter((f) => body[`billing_${f}`] !== undefined && !(f === 'address' && object));
  if (given.length === 0) return object ? addressOf(object) : undefined;
  const flat = Object.fromEntries(given.map((f) => [f, body[`billing_${f}`] ?? null])) as AddressInput;
  return addressOf({ ...(object ?? Object.fromEntries(BILLING_FIELDS.map((f) => [f, null]))), ...flat });
}

/** The flat `billing_*` fields of a record (an order's, a customer's) from its billing address. */
export function billingOf(address: Address | null) {
  return {
    billing_name: address?.name ?? null,
    billing_phone: address?.phone ?? null,
    billing_address: address?.address ?? null,
    billing_number: address?.number ?? null,
    billing_floor: address?.floor ?? null,
    billing_locality: address?.locality ?? null,
    billing_zipcode: address?.zipcode ?? null,
    billing_city: address?.city ?? null,
    billing_province: address?.province ?? null,
    billing_country: address?.country ?? null,
  };
}
