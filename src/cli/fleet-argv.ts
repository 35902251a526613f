import { basename, join } from 'node:path';
import { UsageError } from '../errors.js';
import type { FleetMember } from '../services/fleet/members.js';

/** A flag's definition as oclif holds it: enough to tell a flag that takes a value from a switch. */
export interface FlagDefinition {
  type?: string;
  char?: string;
}

/** The flags of the fleet itself: the parent's, never passed to a store's run. */
const FLEET_ONLY = new Set(['profiles', 'all-profiles', 'fleet', 'concurrency', 'output-dir', 'shard', 'results-dir', 'profile']);

/** Flags whose value is a file a run writes: with --output-dir, each store's goes to DIR/PROFILE/. */
const OUTPUT_FILE_FLAGS = new Set(['report', 'plan-out', 'output']);

/** One word of a command line, as the fleet reads it. */
interface Word {
  text: string;
  /** The flag's name (long), when the word is a flag. */
  flag?: string;
  /** The word is the value of the flag before it. */
  valueFor?: string;
  /** The value is inside the word (`--flag=value`). */
  inline?: boolean;
  positional?: boolean;
}

/**
 * The command line as words that know what they are, from the command's flag definitions: which are flags, which
 * their values (`--report r.csv`, `--report=r.csv`, `-y`), which arguments. After `--` everything is an argument.
 */
export function readArgv(argv: readonly string[], definitions: Record<string, FlagDefinition>): Word[] {
  const byChar = new Map<string, string>();
  for (const [name, def] of Object.entries(definitions)) if (def.char) byChar.set(def.char, name);
  const takesValue = (name: string) => definitions[name]?.type === 'option';
  const words: Word[] = [];
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    const text = argv[i]!;
    if (rest) {
      words.push({ text, positional: true });
      continue;
    }
    if (text === '--') {
      rest = true;
      words.push({ text });
      continue;
    }
    const long = /^--([^=]+)(=.*)?$/s.exec(text);
    const short = /^-([A-Za-z])$/.exec(text);
    const name = long ? long[1]! : short ? byChar.get(short[1]!) : undefined;
    if (name === undefined) {
      words.push({ text, positional: !text.startsWith('-') || text === '-' });
      continue;
    }
    const inline = Boolean(long?.[2]);
    words.push({ text, flag: name, inline });
    if (takesValue(name) && !inline && i + 1 < argv.length) words.push({ text: argv[++i]!, valueFor: name });
  }
  return words;
}

/** `{name}` in a word: a value of the fleet file (only names some store has; `{id}` of a jq filter stays). */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

export interface MemberArgvOptions {
  /** The command's words ("orders", "list"). */
  command: string[];
  words: Word[];
  member: FleetMember;
  /** Every name some store of the fleet has a value for. */
  known: Set<string>;
  /** `--output-dir`: the store's own folder. */
  storeDir?: string;
  /** The command writes its export to its first argument (`orders export FILE`). */
  exportsToArgument: boolean;
  /** Words added to every store's run (`--yes` once the fleet's confirmation was answered, `--dry-run`). */
  extra: string[];
}

/**
 * One store's command line: the fleet's own flags removed, `{column}` replaced by the store's value from the
 * fleet file, its `args` added, `--profile PROFILE` given, and with `--output-dir` the files it writes moved to
 * its folder.
 */
export function memberArgv(opts: MemberArgvOptions): string[] {
  const { member, storeDir } = opts;
  const out: string[] = [...opts.command];
  let firstPositional = true;
  for (const word of opts.words) {
    if ((word.flag && FLEET_ONLY.has(word.flag)) || (word.valueFor && FLEET_ONLY.has(word.valueFor))) continue;
    if (word.flag === 'yes') continue;
    let text = substitute(word.text, member, opts.known);
    if (storeDir) {
      if (word.valueFor && OUTPUT_FILE_FLAGS.has(word.valueFor)) text = join(storeDir, basename(text));
      else if (word.flag && word.inline && OUTPUT_FILE_FLAGS.has(word.flag)) text = `--${word.flag}=${join(storeDir, basename(text.slice(text.indexOf('=') + 1)))}`;
      else if (word.positional && firstPositional && opts.exportsToArgument && text !== '-') text = join(storeDir, basename(text));
    }
    if (word.positional) firstPositional = false;
    out.push(text);
  }
  // Before a `--`, so that they stay flags.
  const end = out.indexOf('--');
  const added = [...member.args, ...opts.extra, '--profile', member.profile];
  if (end === -1) out.push(...added);
  else out.splice(end, 0, ...added);
  return out;
}

function substitute(text: string, member: FleetMember, known: Set<string>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!known.has(name)) return whole;
    const value = member.vars[name];
    if (value === undefined) throw new UsageError(`${member.where}: the command line uses {${name}}, which store "${member.profile}" has no value for.`);
    return value;
  });
}

/** Whether the command line reads standard input ("-" as a file): a fleet's stores cannot share it. */
export function readsStdin(words: Word[], exportsToArgument: boolean): boolean {
  const positional = words.filter((w) => w.positional);
  return !exportsToArgument && positional.some((w) => w.text === '-');
}
