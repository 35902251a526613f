import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.js';
import type { AppRecord, TokenRecord } from './records.js';
import type { SandboxState } from './state.js';

/**
 * OAuth (docs/api-rules.md §5.18), served by the API server itself: auth_url is the same host root, and the OAuth
 * paths (`/apps/...`) never collide with the API's `/v1/...`. Not rate-limited; errors use the OAuth body
 * `{error, error_description}`.
 *
 *   GET  /apps/{app_id}/authorize?state=…[&redirect_uri=…][&scope=a,b][&store_id=N]   approve page (or an immediate redirect with autoApprove)
 *   POST /apps/{app_id}/authorize   form `decision=approve|deny` (+ the same query) → 302 with code&state or error
 *   POST /apps/authorize/token      {client_id, client_secret, grant_type: "authorization_code", code}
 *
 * The approving owner is the sandbox's default store, or the one named by a `store_id` query (sandbox addition). A code is single use and expires after codeTtlSeconds
 * on the clock; exchanging one issues a new token and revokes the app's previous tokens on that store.
 */

const DEFAULT_CODE_TTL_SECONDS = 300;

export function registerOAuth(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.get('/apps/:app_id/authorize', async (req, reply) => {
    const target = authorizeTarget(req, reply, state);
    if (!target) return reply;
    if (ctx.options.autoApprove) return redirectWithCode(reply, ctx, target);
    return reply.type('text/html; charset=utf-8').send(approvePage(target, req.url));
  });

  app.post('/apps/:app_id/authorize', async (req, reply) => {
    const target = authorizeTarget(req, reply, state);
    if (!target) return reply;
    const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
    const decision = form.get('decision');
    if (decision === 'approve') return redirectWithCode(reply, ctx, target);
    if (decision === 'deny') {
      return reply.redirect(withQuery(target.redirect, { error: 'access_denied', state: target.state }), 302);
    }
    return oauthError(reply, 400, 'invalid_request', 'decision must be approve or deny');
  });

  app.post('/apps/authorize/token', async (req, reply) => {
    const body = readBody(req);
    if (!body) return oauthError(reply, 400, 'invalid_request', 'send a JSON body');
    const { client_id, client_secret, grant_type, code } = body;
    if (grant_type !== 'authorization_code') {
      return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be authorization_code');
    }
    // Client ids are numeric strings; a JSON number is the same id.
    const oauthApp =
      typeof client_id === 'string' || typeof client_id === 'number' ? state.apps.get(String(client_id)) : undefined;
    if (!oauthApp || client_secret !== oauthApp.client_secret) {
      return oauthError(reply, 401, 'invalid_client', 'unknown client_id or wrong client_secret');
    }
    const record = typeof code === 'string' ? state.codes.get(code) : undefined;
    if (!record || record.app_id !== oauthApp.client_id || record.expires_at <= ctx.clock.now()) {
      if (record) state.mutate('oauth.code.expire', (tx) => tx.delete(state.codes, record.code));
      return oauthError(reply, 400, 'invalid_grant', 'the code is invalid, expired or already used');
    }
    const token = state.mutate('oauth.token', (tx) => {
      tx.delete(state.codes, record.code);
      for (const old of state.tokens.list()) {
        if (old.store_id === record.store_id && old.app_id === record.app_id) tx.delete(state.tokens, old.token);
      }
      return tx.put(state.tokens, {
        token: randomBytes(20).toString('hex'),
        store_id: record.store_id,
        app_id: record.app_id,
        scopes: record.scopes,
        created_at: tx.now(),
      } satisfies TokenRecord);
    });
    return reply.send({
      access_token: token.token,
      token_type: 'bearer',
      scope: token.scopes.join(','),
      user_id: token.store_id,
    });
  });
}

interface AuthorizeTarget {
  app: AppRecord;
  /** What the token will hold: the `scope` query (comma- or space-separated) or else all the app's scopes. */
  scopes: string[];
  storeId: number;
  storeName: string;
  redirect: string;
  state: string;
}

function authorizeTarget(req: FastifyRequest, reply: FastifyReply, state: SandboxState): AuthorizeTarget | undefined {
  const { app_id } = req.params as { app_id: string };
  const query = req.query as Record<string, string | undefined>;
  const app = state.apps.get(app_id);
  if (!app) {
    oauthError(reply, 404, 'invalid_client', `no app ${app_id}`);
    return undefined;
  }
  // The approving owner's store: the default one, or (sandbox addition) the one named by `store_id`.
  const store = query.store_id ? state.store(Number(query.store_id)) : state.defaultStore();
  if (!store) {
    oauthError(reply, 404, 'invalid_request', query.store_id ? `no store ${query.store_id}` : 'the sandbox has no store');
    return undefined;
  }
  let redirect = app.redirect_url;
  if (query.redirect_uri) {
    if (!isLoopbackUrl(query.redirect_uri)) {
      oauthError(reply, 400, 'invalid_request', 'redirect_uri must be a loopback http URL');
      return undefined;
    }
    redirect = query.redirect_uri;
  }
  let scopes = app.scopes;
  if (query.scope) {
    scopes = Array.from(new Set(query.scope.split(/[\s,]+/).filter(Boolean)));
    const unknown = scopes.filter((s) => !app.scopes.includes(s));
    if (unknown.length) {
      oauthError(reply, 400, 'invalid_scope', `the app cannot request ${unknown.join(', ')}`);
      return undefined;
    }
  }
  return { app, scopes, storeId: store.id, storeName: store.record.name, redirect, state: query.state ?? '' };
}

function redirectWithCode(reply: FastifyReply, ctx: SandboxContext, target: AuthorizeTarget): FastifyReply {
  const ttl = (ctx.options.codeTtlSeconds ?? DEFAULT_CODE_TTL_SECONDS) * 1000;
  const code = randomBytes(16).toString('hex');
  ctx.state.mutate('oauth.code', (tx) => {
    // Expired codes are dropped here so the journal does not keep them forever.
    for (const old of ctx.state.codes.list()) if (old.expires_at <= tx.now()) tx.delete(ctx.state.codes, old.code);
    tx.put(ctx.state.codes, {
      code,
      store_id: target.storeId,
      app_id: target.app.client_id,
      scopes: target.scopes,
      expires_at: tx.now() + ttl,
    });
  });
  return reply.redirect(withQuery(target.redirect, { code, state: target.state }), 302);
}

function isLoopbackUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

function readBody(req: FastifyRequest): Record<string, unknown> | undefined {
  const raw = typeof req.body === 'string' ? req.body : '';
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).send({ error, error_description: description });
}

function approvePage({ app, storeName, scopes }: AuthorizeTarget, action: string): string {
  const esc = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Authorize ${esc(app.name)}</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>Install ${esc(app.name)}?</h1>
<p>The application <strong>${esc(app.name)}</strong> asks for access to the store <strong>${esc(storeName)}</strong>
(sandbox) with these permissions:</p>
<ul>${scopes.map((s) => `<li><code>${esc(s)}</code></li>`).join('')}</ul>
<form method="post" action="${esc(action)}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
</body></html>
`;
}
