import type { FastifyInstance } from 'fastify';
import { parseFaults, registerFaults } from '../faults.js';
import type { SandboxContext } from '../context.js';

/** `--faults` on the API plugin (faults.ts documents the spec); OAuth lives outside it and stays untouched. */
export function register(api: FastifyInstance, ctx: SandboxContext): void {
  registerFaults(api, parseFaults(ctx.options.faults), ctx.clock);
}
