import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../platform/clock.js';
import { isApiVersion } from '../platform/api-versions.js';
import { seededRandom } from './random.js';

/**
 * Fault injection for reliability tests (`store sandbox serve --faults SPEC`).
 *
 * SPEC is a comma-separated list of `name=value` pairs, for example
 *   `5xx=0.1,reset=0.05,lost=0.05,latency=50-200,seed=42`
 *
 *   5xx=P        with probability P answer 500, 502, 503 or 504 before handling: nothing is committed.
 *   reset=P      with probability P destroy the connection before handling: nothing is committed, no answer.
 *   lost=P       with probability P handle the request normally (the change is committed) and then destroy
 *                the connection instead of sending the answer: "committed but response lost".
 *   latency=MS   delay every request by MS milliseconds before handling;
 *   latency=A-B  … by a uniform random delay between A and B milliseconds.
 *   seed=N       seed of the pseudo-random sequence (integer, default 1): the same seed and the same order of
 *                requests give the same faults.
 *   variant-fail=P        in `PATCH /products/stock-price`, each variant fails (`"success": false`, nothing
 *                         written for it) with probability P while the rest of the batch succeeds.
 *   variant-fail-sku=A|B  … every variant whose SKU is one of A, B (separated by `|`) fails.
 *   ack-drop=P   with probability P a write to an existing product or variant is answered as if applied and not
 *                applied (a store once did this to stock writes for two months): in `PATCH /products/stock-price`
 *                per variant (answered `"success": true`), in the other product and variant writes per request.
 *
 * At most one of 5xx, reset and lost happens to a request, so their sum must not exceed 1. An empty SPEC or
 * `off` injects nothing. Faults apply to the API (`/v1/…`), never to the OAuth endpoints, so a test can
 * always log in.
 */

export interface FaultConfig {
  serverError: number;
  reset: number;
  lost: number;
  latencyMs: [number, number];
  seed: number;
  /** Probability that one variant of a stock-price batch fails (per-variant answer `success: false`). */
  variantFail: number;
  /** SKUs whose variants always fail in a stock-price batch. */
  variantFailSkus: string[];
  /** Probability that a write to an existing product or variant is acknowledged and not applied. */
  ackDrop: number;
}

export type FaultKind = 'none' | '5xx' | 'reset' | 'lost';

export interface FaultDecision {
  kind: FaultKind;
  /** The status sent for a 5xx fault. */
  status?: number;
  latencyMs: number;
}

export class FaultSpecError extends Error {
  override name = 'FaultSpecError';
}

const SERVER_ERROR_STATUSES = [500, 502, 503, 504];
const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function parseFaults(spec: string | undefined): FaultConfig {
  const config: FaultConfig = { serverError: 0, reset: 0, lost: 0, latencyMs: [0, 0], seed: 1, variantFail: 0, variantFailSkus: [], ackDrop: 0 };
  const text = (spec ?? '').trim();
  if (text === '' || text === 'off') return config;
  for (const part of text.split(',')) {
    const match = /^\s*([a-z0-9-]+)\s*=\s*(\S+)\s*$/i.exec(part);
    if (!match) throw new FaultSpecError(`Invalid fault "${part.trim()}": expected name=value, e.g. 5xx=0.1.`);
    const [, name, value] = match;
    switch (name.toLowerCase()) {
      case '5xx':
        config.serverError = probability(name, value);
        break;
      case 'reset':
        config.reset = probability(name, value);
        break;
      case 'lost':
        config.lost = probability(name, value);
        break;
      case 'latency':
        config.latencyMs = latencyRange(value);
        break;
      case 'seed':
        if (!/^-?\d+$/.test(value)) throw new FaultSpecError(`Invalid fault seed "${value}": expected an integer.`);
        config.seed = Number(value);
        break;
      case 'variant-fail':
        config.variantFail = probability(name, value);
        break;
      case 'variant-fail-sku':
        config.variantFailSkus = value.split('|').filter((sku) => sku !== '');
        break;
      case 'ack-drop':
        config.ackDrop = probability(name, value);
        break;
      default:
        throw new FaultSpecError(
          `Unknown fault "${name}": use 5xx, reset, lost, latency, seed, variant-fail, variant-fail-sku or ack-drop.`,
        );
    }
  }
  if (config.serverError + config.reset + config.lost > 1) {
    throw new FaultSpecError('The probabilities of 5xx, reset and lost must add up to at most 1.');
  }
  return config;
}

function probability(name: string, value: string): number {
  const p = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(p >= 0 && p <= 1)) {
    throw new FaultSpecError(`Invalid fault ${name}=${value}: expected a probability between 0 and 1.`);
  }
  return p;
}

function latencyRange(value: string): [number, number] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value);
  if (!match) throw new FaultSpecError(`Invalid fault latency=${value}: expected milliseconds, MS or MIN-MAX.`);
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min) throw new FaultSpecError(`Invalid fault latency=${value}: the maximum is below the minimum.`);
  return [min, max];
}

function hasFaults(config: FaultConfig): boolean {
  return config.serverError > 0 || config.reset > 0 || config.lost > 0 || config.latencyMs[1] > 0;
}


/**
 * Which variants of a `PATCH /products/stock-price` batch fail (`variant-fail`, `variant-fail-sku`). Its own
 * pseudo-random sequence (from the same seed), drawn once per variant considered, so request faults are unchanged.
 */
export class VariantFaults {
  private readonly random: () => number;
  private readonly skus: Set<string>;

  constructor(readonly config: FaultConfig) {
    this.random = seededRandom(config.seed);
    this.skus = new Set(config.variantFailSkus);
  }

  fails(sku: string | null): boolean {
    const roll = this.config.variantFail > 0 ? this.random() : 1;
    return (sku !== null && this.skus.has(sku)) || roll < this.config.variantFail;
  }
}

/**
 * Which writes are acknowledged and not applied (`ack-drop`): its own pseudo-random sequence, drawn once per write
 * considered (a stock-price variant, a product or variant write request), so the other faults fall where they did.
 */
export class AckDrops {
  private readonly random: () => number;

  constructor(readonly config: FaultConfig) {
    // Another sequence than VariantFaults' (same seed, shifted), so variant-fail and ack-drop do not pick alike.
    this.random = seededRandom(config.seed + 0x5eed);
  }

  drops(): boolean {
    return this.config.ackDrop > 0 && this.random() < this.config.ackDrop;
  }
}

/** The sequence of fault decisions, one per request, in arrival order. */
export class FaultPlan {
  private readonly random: () => number;

  constructor(readonly config: FaultConfig) {
    this.random = seededRandom(config.seed);
  }

  next(): FaultDecision {
    const { serverError, reset, lost, latencyMs } = this.config;
    // Always draw the same number of values so one decision never shifts the ones after it.
    const roll = this.random();
    const pick = this.random();
    const delay = this.random();
    const [min, max] = latencyMs;
    const latency = min + Math.floor(delay * (max - min + 1));
    if (roll < serverError) {
      const status = SERVER_ERROR_STATUSES[Math.floor(pick * SERVER_ERROR_STATUSES.length)];
      return { kind: '5xx', status, latencyMs: latency };
    }
    if (roll < serverError + reset) return { kind: 'reset', latencyMs: latency };
    if (roll < serverError + reset + lost) return { kind: 'lost', latencyMs: latency };
    return { kind: 'none', latencyMs: latency };
  }
}

const decisions = new WeakMap<FastifyRequest, FaultDecision>();

function isApiRequest(request: FastifyRequest): boolean {
  const first = request.url.split(/[/?]/)[1] ?? '';
  return isApiVersion(first);
}

/**
 * Adds the fault hooks to the app. Register it before the routes; requests outside the API (`/v1`, `/2025-03`) are left alone.
 * Returns the plan, so tests can see what was decided.
 */
export function registerFaults(app: FastifyInstance, config: FaultConfig, clock: Clock, shared?: FaultPlan): FaultPlan | undefined {
  if (!hasFaults(config)) return undefined;
  const plan = shared ?? new FaultPlan(config);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isApiRequest(request)) return;
    const decision = plan.next();
    if (decision.latencyMs > 0) {
      await new Promise<void>((resolve) => clock.setTimeout(resolve, decision.latencyMs));
    }
    if (decision.kind === '5xx') {
      const status = decision.status ?? 500;
      return reply.code(status).send({
        code: status,
        message: REASONS[status],
        description: 'Injected fault: the request was not processed.',
      });
    }
    if (decision.kind === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (decision.kind === 'lost') decisions.set(request, decision);
  });

  // onSend runs after the handler committed its change and before anything is written to the socket.
  app.addHook('onSend', async (request, reply, payload) => {
    if (decisions.get(request)?.kind !== 'lost') return payload;
    decisions.delete(request);
    request.raw.socket.destroy();
    return payload;
  });

  return plan;
}
