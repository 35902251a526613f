/**
 * The last line of defence of "secrets are never printed" (docs/decisions.md "Profiles and credentials"): every write to stdout and stderr
 * of a command goes through here, and any known secret in it (the profile's token, a client secret, the
 * environment's STORE_TOKEN) is replaced, whichever path printed it: an error that quotes the server, a
 * `store api` body or header, a server that echoes the token back, `--debug`. Only `store auth token`,
 * whose job is printing the token, runs without it.
 */
import { REDACTED } from '../client/redact.js';
import { io } from './io.js';

/** Shorter values would match ordinary text by accident; real tokens are far longer. */
const MIN_SECRET_LENGTH = 8;
const SECRET_ENVIRONMENT = ['STORE_TOKEN', 'STORE_CLIENT_SECRET'];

const secrets = new Set<string>();
/** Values that are not secret whoever holds them: the sandbox's own credentials (docs/sandbox.md). */
const notSecret = new Set<string>();
const guarded = new WeakSet<NodeJS.WritableStream>();

/** A secret to keep out of everything printed from now on. */
export function addSecret(value: string | undefined): void {
  if (typeof value === 'string' && value.trim().length >= MIN_SECRET_LENGTH && !notSecret.has(value.trim())) secrets.add(value.trim());
}

/**
 * Values printed as they are even when the environment holds them too: `sandbox serve` prints the sandbox's own
 * token and client secret, which only open that local server, and a script that restarts it with STORE_TOKEN set
 * to the same token must read it back, not "[REDACTED]". Every other known secret is still scrubbed.
 */
export function notASecret(...values: (string | undefined)[]): void {
  for (const value of values) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    notSecret.add(value.trim());
    secrets.delete(value.trim());
  }
}

/** `text` with every known secret replaced (what is printed, and the command line the run ledger keeps). */
export function scrub(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** An http(s) URL's query: where a feed's signed or tokened URL carries its credentials (`?token=`, `&X-Amz-Signature=`). */
const URL_QUERY = /(https?:\/\/[^\s?#]*)\?([^\s#]*)/gi;

/**
 * `text` with the value of every query parameter of each http(s) URL in it replaced, names kept
 * (`https://erp.example/stock.csv?token=[REDACTED]`): a feed URL is shown everywhere else without its query
 * (client/download.ts shownUrl), and a presigned or tokened one is a credential as long as it lives.
 */
export function hideUrlQueries(text: string): string {
  return text.replace(URL_QUERY, (_, base: string, query: string) => {
    const params = query.split('&').map((param) => {
      const equals = param.indexOf('=');
      return equals < 0 ? (param === '' ? '' : REDACTED) : `${param.slice(0, equals)}=${REDACTED}`;
    });
    return `${base}?${params.join('&')}`;
  });
}

/**
 * The command line as the run ledger keeps it: the value of each of `secretFlags` (`--header`, which carries a
 * feed's credentials, whatever their length) replaced after its "Name:", the query values of any URL hidden
 * (hideUrlQueries), then every known secret scrubbed.
 */
export function scrubArgv(argv: readonly string[], secretFlags: readonly string[] = []): string[] {
  const hidden = (value: string) => {
    const colon = value.indexOf(':');
    return colon > 0 ? `${value.slice(0, colon)}: ${REDACTED}` : REDACTED;
  };
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const flag = secretFlags.find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (flag !== undefined && arg.startsWith(`--${flag}=`)) {
      out.push(`--${flag}=${hidden(arg.slice(flag.length + 3))}`);
    } else if (flag !== undefined && i + 1 < argv.length) {
      out.push(arg, hidden(argv[++i]!));
    } else {
      out.push(arg);
    }
  }
  return out.map((arg) => scrub(hideUrlQueries(arg)));
}

/**
 * Forgets every secret: a test process that runs many commands (test/helpers/run-in-process.ts) starts each
 * run knowing only its own, as a new process would.
 */
export function forgetSecrets(): void {
  secrets.clear();
  notSecret.clear();
}

/** Wraps the command's stdout and stderr (once each); the environment's secrets are known from the start. */
export function guardOutput(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of SECRET_ENVIRONMENT) addSecret(env[name]);
  for (const stream of [io().stdout, io().stderr]) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (secrets.size > 0) {
        if (typeof chunk === 'string') chunk = scrub(chunk);
        else if (chunk instanceof Uint8Array) {
          const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          // Decoded only when a secret is there: binary or split UTF-8 passes through untouched.
          if ([...secrets].some((s) => buffer.includes(s))) chunk = scrub(buffer.toString('utf8'));
        }
      }
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}
