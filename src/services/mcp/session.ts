import type { z } from 'zod';
import type { StoreClient } from '../../client/index.js';
import type { BrakeSettings } from '../bulk/brakes.js';
import type { ToolReply, UntrustedPolicy } from './reply.js';

/**
 * What every tool of `store mcp` works with: the one client of the profile (the token stays inside it, never in an
 * argument, a reply or a log), the store it talks to, and what the command line allowed.
 */

export const TOOLSETS = ['orders', 'catalog', 'customers', 'invoices', 'runs'] as const;
export type Toolset = (typeof TOOLSETS)[number];

export interface McpStore {
  client: StoreClient;
  profile: string;
  storeId: string;
  apiUrl: string;
  appId: string;
}

export interface McpOptions extends UntrustedPolicy {
  /** `--write`: the plan and apply tools are served; without it they are not even listed. */
  write: boolean;
  toolsets: readonly Toolset[];
  /** The OAuth scopes the profile's token holds; undefined when not known (then every tool is served). */
  scopes?: readonly string[];
  /** The brakes of every apply (flags over the profile's defaults). */
  brakes: BrakeSettings;
  env: NodeJS.ProcessEnv;
}

export interface Session {
  store: McpStore;
  options: McpOptions;
}

/** What a tool call knows besides its arguments. */
export interface CallContext {
  /** The MCP client's name (its clientInfo), which the ledger records an apply under. */
  clientName: string;
  signal: AbortSignal;
  /**
   * Asks the user through the host (MCP elicitation) when the host offers it: true or false as answered, undefined
   * when it cannot ask (no elicitation, the 2026 era, an error). Never relied on: a plan is the safeguard.
   */
  confirm(message: string): Promise<boolean | undefined>;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool: where it belongs, what it needs, and what it does. */
export interface ToolSpec<S extends z.ZodObject = z.ZodObject> {
  name: string;
  /** `core` tools are served with any toolset. */
  toolset: Toolset | 'core';
  /** A write tool: served only with `--write`. */
  write: boolean;
  /** OAuth scopes of which the token must hold one (`read_orders` is also held by `write_orders`); none: always. */
  scopes?: readonly string[];
  title: string;
  description: string;
  input: S;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(args: z.infer<S>, session: Session, call: CallContext): Promise<ToolReply>;
}

/** A read tool's annotations: it changes nothing, and reads the store (the open world). */
export const READS_STORE: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
/** Reads only this machine (the run ledger). */
export const READS_LEDGER: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A tool spec, typed by its input schema. */
export function tool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** Whether a token with `held` scopes may use a tool needing one of `needed` (write_x covers read_x). */
export function scopesAllow(held: readonly string[] | undefined, needed: readonly string[] | undefined): boolean {
  if (!held || held.length === 0 || !needed || needed.length === 0) return true;
  return needed.some((scope) => held.includes(scope) || (scope.startsWith('read_') && held.includes(`write_${scope.slice('read_'.length)}`)));
}
