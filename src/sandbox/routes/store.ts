import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { PLAN_NAMES, isPlan } from '../../platform/plans.js';

/**
 * `GET /store` in the platform's documented shape (docs/platform.md §2): `main_language`, `main_currency`,
 * `languages` keyed by code with `{currency, active}`, `plan_name`; the name and description localized.
 */
export function register(api: FastifyInstance, _ctx: SandboxContext): void {
  api.get('/store', async (req) => {
    const { id, name, plan, languages, main_language, currency, country, created_at } = req.store.record;
    const localized = Object.fromEntries(languages.map((lang) => [lang, name]));
    return {
      id,
      name: localized,
      description: Object.fromEntries(languages.map((lang) => [lang, ''])),
      country,
      main_language,
      main_currency: currency,
      admin_language: main_language,
      languages: Object.fromEntries(languages.map((lang) => [lang, { currency, active: true }])),
      plan_name: isPlan(plan) ? PLAN_NAMES[plan] : plan,
      email: 'owner@example.com',
      contact_email: 'owner@example.com',
      domains: [],
      original_domain: `store-${id}.example.com`,
      customer_accounts: 'optional',
      business_name: null,
      phone: null,
      address: null,
      logo: null,
      type: 'store',
      current_theme: 'default',
      created_at: new Date(created_at).toISOString().replace(/\.\d{3}Z$/, '+0000'),
    };
  });
}
