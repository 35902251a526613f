import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/platform/clock.js';
import { FaultPlan, FaultSpecError, parseFaults, registerFaults } from '../../../src/sandbox/faults.js';

describe('fault spec', () => {
  it('parses every fault', () => {
    expect(parseFaults('5xx=0.1,reset=0.05,latency=50-200,lost=0.05,seed=42')).toEqual({
      serverError: 0.1,
      reset: 0.05,
      lost: 0.05,
      latencyMs: [50, 200],
      seed: 42,
      variantFail: 0,
      variantFailSkus: [],
      ackDrop: 0,
    });
    expect(parseFaults('ack-drop=0.2').ackDrop).toBe(0.2);
    expect(parseFaults('variant-fail=0.25,variant-fail-sku=A-1|B2')).toMatchObject({ variantFail: 0.25 });
    expect(parseFaults('variant-fail-sku=A-1|B2').variantFailSkus).toEqual(['A-1', 'B2']);
    expect(parseFaults('latency=30').latencyMs).toEqual([30, 30]);
    expect(parseFaults('')).toMatchObject({ serverError: 0, reset: 0, lost: 0, latencyMs: [0, 0] });
    expect(parseFaults('off')).toMatchObject({ serverError: 0 });
  });

  it.each([
    ['5xx', /name=value/],
    ['timeout=0.1', /Unknown fault "timeout"/],
    ['5xx=1.5', /between 0 and 1/],
    ['reset=abc', /between 0 and 1/],
    ['latency=200-50', /below the minimum/],
    ['latency=fast', /milliseconds/],
    ['seed=x', /integer/],
    ['variant-fail=2', /between 0 and 1/],
    ['5xx=0.6,lost=0.6', /add up to at most 1/],
  ])('rejects %s', (spec, message) => {
    expect(() => parseFaults(spec)).toThrow(FaultSpecError);
    expect(() => parseFaults(spec)).toThrow(message);
  });

  it('gives the same decisions for the same seed and different ones for another seed', () => {
    const config = parseFaults('5xx=0.2,reset=0.1,lost=0.1,latency=0-100,seed=7');
    const a = new FaultPlan(config);
    const b = new FaultPlan(config);
    const c = new FaultPlan({ ...config, seed: 8 });
    const seqA = Array.from({ length: 200 }, () => a.next());
    const seqB = Array.from({ length: 200 }, () => b.next());
    const seqC = Array.from({ length: 200 }, () => c.next());
    expect(seqB).toEqual(seqA);
    expect(seqC).not.toEqual(seqA);
  });

  it('injects faults at roughly the configured rates, latency within range', () => {
    const plan = new FaultPlan(parseFaults('5xx=0.2,reset=0.1,lost=0.1,latency=10-20,seed=3'));
    const counts = { none: 0, '5xx': 0, reset: 0, lost: 0 };
    for (let i = 0; i < 5000; i++) {
      const d = plan.next();
      counts[d.kind] += 1;
      expect(d.latencyMs).toBeGreaterThanOrEqual(10);
      expect(d.latencyMs).toBeLessThanOrEqual(20);
      if (d.kind === '5xx') expect([500, 502, 503, 504]).toContain(d.status);
    }
    expect(counts['5xx'] / 5000).toBeCloseTo(0.2, 1);
    expect(counts.reset / 5000).toBeCloseTo(0.1, 1);
    expect(counts.lost / 5000).toBeCloseTo(0.1, 1);
  });
});

describe('fault hooks', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** An app with a counter, so a test can tell whether a request was committed. */
  async function start(spec: string) {
    const app = Fastify();
    const state = { commits: 0 };
    registerFaults(app, parseFaults(spec), systemClock);
    app.post('/v1/1/things', async () => ({ commits: ++state.commits }));
    app.post('/apps/authorize/token', async () => ({ access_token: 't' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    return { state, port };
  }

  function post(port: number, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers 5xx without committing', async () => {
    const { state, port } = await start('5xx=1');
    const res = await post(port, '/v1/1/things');
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(JSON.parse(res.body)).toMatchObject({ code: res.status, description: expect.stringMatching(/fault/) });
    expect(state.commits).toBe(0);
  });

  it('resets the connection without committing', async () => {
    const { state, port } = await start('reset=1');
    await expect(post(port, '/v1/1/things')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(state.commits).toBe(0);
  });

  it('commits and then loses the response', async () => {
    const { state, port } = await start('lost=1');
    await expect(post(port, '/v1/1/things')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(state.commits).toBe(1);
  });

  it('leaves the OAuth token endpoint alone', async () => {
    const { port } = await start('reset=1');
    const res = await post(port, '/apps/authorize/token');
    expect(res.status).toBe(200);
  });
});
