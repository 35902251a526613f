import { describe, expect, it } from 'vitest';
import { ULID, address, errorShape, startTestSandbox, useSandbox } from '../helpers/sandbox.js';
import { createLocation, createSimpleProduct, expectOk } from './support.js';

/** Spec §2 Location, §4 Locations, §8 locations per plan; DESIGN.md §5.9. */

describe('spec §4 Locations', () => {
  const t = useSandbox();

  it('§4 POST /locations → the created location (ULID id, localized name, address, flags, priority)', async () => {
    const res = await t.post('/locations', {
      name: 'Main shop',
      address: address(),
      is_default: false,
      allows_pickup: true,
      priority: 0,
    });
    expect([200, 201]).toContain(res.status);
    expect(res.body.id).toMatch(ULID);
    // §2: location names are keyed by locale codes (es_AR, pt_BR, en_US); a plain string lands under one of them.
    expect(Object.values(res.body.name)).toContain('Main shop');
    for (const key of Object.keys(res.body.name)) expect(key).toMatch(/^[a-z]{2}(_[A-Z]{2})?$/);
    expect(res.body.address).toMatchObject(address());
    expect(res.body.allows_pickup).toBe(true);
    expect(typeof res.body.is_default).toBe('boolean');
    expect(Number.isInteger(res.body.priority)).toBe(true);
    // platform.md §7: store_id is a string; the address carries verified_at.
    expect(res.body.store_id).toBe(String(t.sandbox.storeId));
    expect(res.body.address).toHaveProperty('verified_at');
  });

  it('platform.md §7: the address has a region {code, name}, set on create and changed on update', async () => {
    const res = await t.post('/locations', { name: 'Salta', address: { ...address(), region: { code: 'NOA', name: 'Noroeste' } }, priority: 4 });
    expect([200, 201]).toContain(res.status);
    expect(res.body.address.region).toEqual({ code: 'NOA', name: 'Noroeste' });
    expect(res.body.priority).toBe(4);
    const updated = await t.put(`/locations/${res.body.id}`, { address: { region: { name: 'Norte Grande' } }, priority: 5 });
    expect(updated.body.address.region).toEqual({ code: 'NOA', name: 'Norte Grande' });
    expect(updated.body.priority).toBe(5);
  });

  it('§5.9: the first location is the default', async () => {
    const list = await t.get('/locations');
    const defaults = list.body.filter((l: any) => l.is_default);
    expect(defaults).toHaveLength(1);
    expect(defaults[0].name).toBeDefined();
  });

  it('§4 GET /locations → list of locations', async () => {
    await createLocation(t, 'Second');
    const res = await t.get('/locations');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.length).toBeGreaterThanOrEqual(2);
  });

  it('§4 PUT /locations/{id} → the updated location', async () => {
    const loc = await createLocation(t, 'Before');
    const res = await t.put(`/locations/${loc.id}`, { name: 'After', address: address('Rosario'), allows_pickup: true });
    expect(res.status).toBe(200);
    expect(Object.values(res.body.name)).toContain('After');
    expect(res.body.address.city).toBe('Rosario');
    expect(res.body.allows_pickup).toBe(true);
    const listed = (await t.get('/locations')).body.find((l: any) => l.id === loc.id);
    expect(listed.address.city).toBe('Rosario');
  });

  it('§2: name is an object keyed by locale codes (es_AR, pt_BR, en_US)', async () => {
    const res = await t.post('/locations', { name: { es_AR: 'Depósito', pt_BR: 'Depósito BR' }, address: address() });
    expect([200, 201]).toContain(res.status);
    expect(res.body.name).toMatchObject({ es_AR: 'Depósito', pt_BR: 'Depósito BR' });
  });

  it('§7 404: PUT /locations/{unknown id} → 404', async () => {
    const res = await t.put('/locations/01JZZZZZZZZZZZZZZZZZZZZZZZ', { name: 'X', address: address() });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape(404));
  });

  it('§4 PATCH /locations/{id}/chosen-as-default (no body) → makes the location the default', async () => {
    const loc = await createLocation(t, 'Will be default');
    const res = await t.patch(`/locations/${loc.id}/chosen-as-default`);
    expectOk(res);
    const list = (await t.get('/locations')).body;
    expect(list.filter((l: any) => l.is_default).map((l: any) => l.id)).toEqual([loc.id]);
  });

  it('§4 PATCH /locations/priorities → renumbers every location 0…n−1 in the given order', async () => {
    const list = (await t.get('/locations', { query: { per_page: 200 } })).body;
    const reversed = [...list].reverse();
    const res = await t.patch(
      '/locations/priorities',
      reversed.map((l: any, i: number) => ({ id: l.id, priority: 10 + i * 10 })),
    );
    expectOk(res);
    const after = (await t.get('/locations', { query: { per_page: 200 } })).body;
    const byId = new Map(after.map((l: any) => [l.id, l.priority]));
    reversed.forEach((l: any, i: number) => expect(byId.get(l.id)).toBe(i));
  });

  it('§5.9: PATCH /locations/priorities must name every location once (missing → 422)', async () => {
    const list = (await t.get('/locations', { query: { per_page: 200 } })).body;
    const res = await t.patch('/locations/priorities', list.slice(1).map((l: any, i: number) => ({ id: l.id, priority: i })));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });

  it('§5.9: PATCH /locations/priorities with a duplicate or unknown id → 422', async () => {
    const list = (await t.get('/locations', { query: { per_page: 200 } })).body;
    const dup = [...list, list[0]].map((l: any, i: number) => ({ id: l.id, priority: i }));
    expect((await t.patch('/locations/priorities', dup)).status).toBe(422);
    const unknown = [...list.map((l: any) => l.id), '01JZZZZZZZZZZZZZZZZZZZZZZZ'].map((id, i) => ({ id, priority: i }));
    expect((await t.patch('/locations/priorities', unknown)).status).toBe(422);
  });

  it('§5.9: DELETE /locations/{id} (added) → removes a location that is not default and holds no stock', async () => {
    const loc = await createLocation(t, 'Temporary');
    expectOk(await t.del(`/locations/${loc.id}`));
    const list = (await t.get('/locations', { query: { per_page: 200 } })).body;
    expect(list.some((l: any) => l.id === loc.id)).toBe(false);
    expect((await t.del(`/locations/${loc.id}`)).status).toBe(404);
  });

  it('§5.9: DELETE /locations/{id} → 422 while it is the default', async () => {
    const def = (await t.get('/locations', { query: { per_page: 200 } })).body.find((l: any) => l.is_default);
    const res = await t.del(`/locations/${def.id}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(errorShape(422));
  });

  it('§5.9: DELETE /locations/{id} → 422 while it holds stock', async () => {
    const loc = await createLocation(t, 'Stocked');
    await createSimpleProduct(t, { inventory_levels: [{ location_id: loc.id, stock: 3 }] });
    const res = await t.del(`/locations/${loc.id}`);
    expect(res.status).toBe(422);
  });

  it('§7 422: a location without a name → 422 with errors.name', async () => {
    const res = await t.post('/locations', { address: address() });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toBeDefined();
  });
});

describe('spec §8 limit: locations per store plan (DESIGN.md §5.9)', () => {
  const cases: [string, number | null][] = [
    ['freemium', 1],
    ['a', 1],
    ['b', 2],
    ['c', 3],
    ['enterprise', null],
    ['next', null],
    ['evolution', null],
  ];
  for (const [plan, limit] of cases) {
    it(`§8: plan ${plan} → ${limit === null ? 'unlimited' : `${limit} location(s), the next one → 422 naming the plan and limit`}`, async () => {
      const t = await startTestSandbox({ plan });
      try {
        const list = await t.get('/locations');
        const existing = list.status === 404 ? 0 : list.body.length;
        const target = limit ?? 6;
        for (let i = existing; i < target; i++) {
          const res = await t.post('/locations', { name: `L${i}`, address: address() });
          expect([200, 201], res.text).toContain(res.status);
        }
        const extra = await t.post('/locations', { name: 'One too many', address: address() });
        if (limit === null) {
          expect([200, 201]).toContain(extra.status);
        } else {
          expect(extra.status).toBe(422);
          expect(extra.body).toMatchObject(errorShape(422));
          expect(extra.body.description.toLowerCase()).toContain(plan);
          expect(extra.body.description).toContain(String(limit));
        }
      } finally {
        await t.close();
      }
    });
  }
});
