import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../server.js';

/** `GET /store` (DESIGN.md §5.19): what a client needs to know to send localized fields. */
export function register(api: FastifyInstance, _ctx: SandboxContext): void {
  api.get('/store', async (req) => {
    const { id, name, plan, languages, main_language, currency, country } = req.store.record;
    return { id, name, plan, languages, main_language, currency, country };
  });
}
