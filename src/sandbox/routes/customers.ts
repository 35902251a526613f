import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { httpError, intParam, invalid, isoTime, notFound, paginate, parseBody, queryParam, refuseFields, requestedFields, withFields } from '../http.js';
import type { SandboxContext } from '../context.js';
import type { StoreData } from '../state.js';
import { AddressBody, addressOf, billingBody, billingOf, billingOfBody, text } from './addresses.js';
import {
  createCustomer,
  customersOf,
  emailKey,
  findCustomerByEmail,
  orderSummary,
  ordersOfCustomer,
  updateCustomer,
  type CustomerAddress,
  type CustomerChanges,
  type CustomerRecord,
} from '../store/customers.js';

/**
 * The customer routes (docs/platform.md §11; records and operations: store/customers.ts) and the documented record.
 * Where the platform is silent the sandbox chooses, and docs/sandbox.md says so: the list comes in id order;
 * `q` finds text inside the name, email or identification (accents and case aside); `email` is the whole address
 * (case aside); an email already taken by another customer is a 422.
 */

function presentAddress(address: CustomerAddress, isDefault: boolean) {
  return {
    id: address.id,
    name: address.name,
    address: address.address,
    number: address.number,
    floor: address.floor,
    locality: address.locality,
    city: address.city,
    province: address.province,
    zipcode: address.zipcode,
    country: address.country,
    phone: address.phone,
    default: isDefault,
    created_at: isoTime(address.created_at),
    updated_at: isoTime(address.updated_at),
  };
}

/** The customer record of docs/platform.md §11; the first address is the default one. */
export function presentCustomer(store: StoreData, customer: CustomerRecord) {
  const { total_spent, last_order_id } = orderSummary(store, customer.id);
  const { billing_name: _name, ...billing } = billingOf(customer.billing);
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    identification: customer.identification,
    note: customer.note,
    default_address: customer.addresses[0] ? presentAddress(customer.addresses[0], true) : null,
    addresses: customer.addresses.map((a, i) => presentAddress(a, i === 0)),
    ...billing,
    extra: { ...customer.extra },
    total_spent,
    total_spent_currency: store.record.currency,
    last_order_id,
    active: customer.active,
    accepts_marketing: customer.accepts_marketing,
    created_at: isoTime(customer.created_at),
    updated_at: isoTime(customer.updated_at),
  };
}

const nullableText = (max: number) => text(max).nullish();

const CustomerFields = {
  phone: nullableText(50),
  identification: nullableText(50),
  note: nullableText(5000),
  addresses: z.array(AddressBody, { error: 'must be a list of addresses' }).max(50, { error: 'must have at most 50 addresses' }).optional(),
  ...billingBody,
  extra: z.record(z.string(), z.unknown(), { error: 'must be an object' }).nullish(),
  accepts_marketing: z.boolean({ error: 'must be true or false' }).optional(),
  // Documented on the create; the sandbox sends no email and keeps no password.
  send_email_invite: z.boolean({ error: 'must be true or false' }).optional(),
  password: text(200).optional(),
};

const Name = text(200).refine((n) => n.trim() !== '', { error: "can't be blank" });
const Email = z.email({ error: 'must be an email address' }).max(254, { error: 'must be at most 254 characters' });

const CreateBody = z.object({ name: Name, email: Email, ...CustomerFields });
const UpdateBody = z.object({ name: Name.optional(), email: Email.optional(), ...CustomerFields });
type UpdateInput = z.infer<typeof UpdateBody>;

/** The body's fields as the store's operations take them; absent ones stay absent. */
function changesOf(body: UpdateInput): CustomerChanges {
  const changes: CustomerChanges = {};
  if (body.name !== undefined) changes.name = body.name.trim();
  if (body.email !== undefined) changes.email = body.email;
  if (body.phone !== undefined) changes.phone = body.phone;
  if (body.identification !== undefined) changes.identification = body.identification;
  if (body.note !== undefined) changes.note = body.note;
  if (body.addresses !== undefined) changes.addresses = body.addresses.map(addressOf);
  const billing = billingOfBody(body);
  if (billing !== undefined) changes.billing = billing;
  if (body.extra !== undefined) changes.extra = body.extra ?? {};
  if (body.accepts_marketing !== undefined) changes.accepts_marketing = body.accepts_marketing;
  return changes;
}

/** 422 when another customer has the email (case aside). */
function refuseTakenEmail(store: StoreData, email: string, self?: number): void {
  const holder = findCustomerByEmail(store, email);
  if (holder && holder.id !== self) refuseFields({ email: [`has already been taken (customer ${holder.id})`] });
}

function loadCustomer(store: StoreData, idText: string | undefined): CustomerRecord {
  const id = intParam(idText, 'Customer');
  const customer = customersOf(store).get(id);
  if (!customer) throw notFound('Customer', id);
  return customer;
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** GET /customers's own filters (the created_at/updated_at windows and paging are paginate's, as on every list). */
function matchingCustomers(req: FastifyRequest): CustomerRecord[] {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const sinceText = queryParam(query, 'since_id');
  if (sinceText !== undefined && !/^\d+$/.test(sinceText)) throw invalid('since_id', 'must be a customer id');
  const sinceId = sinceText === undefined ? undefined : Number(sinceText);
  const q = queryParam(query, 'q')?.trim();
  const words = q ? fold(q) : undefined;
  const email = queryParam(query, 'email');
  const wanted = email === undefined ? undefined : emailKey(email);
  return customersOf(req.store)
    .list()
    .filter(
      (c) =>
        (sinceId === undefined || c.id > sinceId) &&
        (wanted === undefined || emailKey(c.email) === wanted) &&
        (words === undefined ||
          fold(c.name).includes(words) ||
          fold(c.email).includes(words) ||
          fold(c.identification ?? '').includes(words)),
    )
    .sort((a, b) => a.id - b.id);
}

/** `event_launch_ts` of the customer webhooks (docs/platform.md §11): when the event was launched, in Unix seconds. */
function launched(ctx: SandboxContext): Record<string, unknown> {
  return { event_launch_ts: Math.floor(ctx.clock.now() / 1000) };
}

/** Sends a customer webhook (customer/created|updated|deleted) with its `event_launch_ts`. */
export function emitCustomerEvent(ctx: SandboxContext, event: 'created' | 'updated' | 'deleted', storeId: number, customerId: number): void {
  ctx.emit(`customer/${event}`, storeId, customerId, launched(ctx));
}

export function register(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  api.get('/customers', async (req, reply) => {
    const fields = requestedFields(req.query);
    return paginate(req, reply, matchingCustomers(req), (c) => withFields(presentCustomer(req.store, c), fields));
  });

  api.get('/customers/:customer_id', async (req) => {
    const customer = loadCustomer(req.store, (req.params as { customer_id: string }).customer_id);
    return withFields(presentCustomer(req.store, customer), requestedFields(req.query));
  });

  api.post('/customers', async (req, reply) => {
    const store = req.store;
    const body = parseBody(CreateBody, req.body);
    refuseTakenEmail(store, body.email);
    const { name, email, ...rest } = changesOf(body);
    const customer = state.mutate('customer.create', (tx) => createCustomer(tx, store, { name: name!, email: email!, ...rest }));
    emitCustomerEvent(ctx, 'created', store.id, customer.id);
    return reply.code(201).send(presentCustomer(store, customer));
  });

  api.put('/customers/:customer_id', async (req) => {
    const store = req.store;
    const customer = loadCustomer(store, (req.params as { customer_id: string }).customer_id);
    const body = parseBody(UpdateBody, req.body);
    if (body.email !== undefined) refuseTakenEmail(store, body.email, customer.id);
    const updated = state.mutate('customer.update', (tx) => updateCustomer(tx, store, customer, changesOf(body)));
    emitCustomerEvent(ctx, 'updated', store.id, updated.id);
    return presentCustomer(store, updated);
  });

  api.delete('/customers/:customer_id', async (req) => {
    const store = req.store;
    const customer = loadCustomer(store, (req.params as { customer_id: string }).customer_id);
    const orders = ordersOfCustomer(store, customer.id).length;
    if (orders > 0) throw httpError(422, 'Cannot delete a customer with orders', { id: [`has ${orders} order${orders === 1 ? '' : 's'}`] });
    state.mutate('customer.delete', (tx) => tx.delete(customersOf(store), customer.id));
    emitCustomerEvent(ctx, 'deleted', store.id, customer.id);
    return {};
  });
}
