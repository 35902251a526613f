import type { Command } from '@oclif/core';
import { CommandHelp, Help } from '@oclif/core/help';

/**
 * `store --help` and every command's help (package.json `oclif.helpClass`), oclif's with three changes:
 * - the usage line is built here: oclif's docopts joins a flag with an exclusive or required partner already
 *   joined to another and prints `[--link <value> | ]`, `[--sandbox |  | [--code …]]` or `[--report <value> ]`;
 * - nothing is wider than the terminal (80 columns when piped): oclif leaves one-line examples, the summary and
 *   a long usage line unwrapped, so every text the help writes goes through `fitLines` (`log`), and a command's
 *   help also where `oclif readme` takes it (`formatCommand`); example commands are continued with ` \` so they
 *   still paste into a shell;
 * - the root help starts with how to begin and ends with examples.
 */
export default class StoreHelp extends Help {
  protected override CommandHelpClass = StoreCommandHelp;

  override formatRoot(): string {
    const bin = this.config.bin;
    const start = [
      `${bin} auth login --sandbox    # a local store with demo data, no account`,
      `${bin} orders list             # the newest orders`,
      `${bin} products list --json    # the catalog, as JSON`,
      `${bin} webhooks listen         # store events as they happen`,
    ];
    return `${super.formatRoot()}\n\n${this.section('GETTING STARTED', start.map((l) => `$ ${l}`).join('\n'))}`;
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    const bin = this.config.bin;
    const examples = [
      `${bin} orders list --status open --payment-status paid`,
      `${bin} orders get 1000000123`,
      `${bin} products import catalog.csv --dry-run`,
      `${bin} variants sync stock.csv`,
      `${bin} api /orders --jq '.[0].id'`,
    ];
    this.log(this.section('EXAMPLES', examples.map((l) => `$ ${l}`).join('\n')));
    this.log('');
  }

  /**
   * Everything the help prints. Not `summary()`: the command lists place it in a column oclif wraps itself, and
   * a summary wrapped at the full width first would break twice ("…, oldest\n first.").
   */
  protected override log(...texts: string[]): void {
    super.log(...texts.map((text) => fitLines(text, this.width)));
  }

  protected override formatCommand(command: Command.Loadable): string {
    return fitLines(super.formatCommand(command), this.width);
  }

  private get width(): number {
    return this.opts.maxWidth;
  }
}

class StoreCommandHelp extends CommandHelp {
  protected override defaultUsage(): string {
    return usageLine(this.command);
  }

  /** A flag's values as one list that wraps between values (oclif joins them with bars and cuts inside a word). */
  protected override flags(flags: Command.Flag.Any[]): [string, string | undefined][] | undefined {
    return super
      .flags(flags)
      ?.map(([left, right]) => [left, right?.replace(/<options: ([^>]*)>/, (_, list: string) => `<options: ${list.split('|').join(', ')}>`)]);
  }

  /** `$ store topic verb ARGS FLAGS`, broken at spaces and continued four columns in (no ` \\`: it is a synopsis). */
  protected override usage(): string {
    const id = this.command.id.replaceAll(':', ' ');
    const usages = this.command.usage === undefined ? [this.defaultUsage()] : [this.command.usage].flat();
    return usages
      .map((u) => {
        const rest = u.replace('<%= command.id %>', '').trim().replace(new RegExp(`^(${id}|${this.command.id})\\b`), '').trim();
        // The section indents its body by two columns.
        return wrapWords(`$ ${this.config.bin} ${id} ${rest}`.trim(), this.opts.maxWidth - 2, '  ', '', true);
      })
      .join('\n');
  }
}

/**
 * `<%= command.id %> ARG [OPTIONAL] [--flag <value>] [--a | --b]`: each flag once, in declaration order (required
 * first), a flag grouped with the flags it excludes that are not yet shown.
 */
export function usageLine(command: Pick<Command.Loadable, 'args' | 'flags' | 'strict'>): string {
  const parts = ['<%= command.id %>'];
  for (const [name, arg] of Object.entries(command.args ?? {})) {
    if (arg.hidden) continue;
    const text = `${name.toUpperCase()}${arg.multiple || command.strict === false ? '...' : ''}`;
    parts.push(arg.required ? text : `[${text}]`);
  }
  const flags = Object.values(command.flags ?? {}).filter((f) => !f.hidden);
  const ordered = [...flags.filter((f) => f.required), ...flags.filter((f) => !f.required)];
  const shown = new Set<string>();
  const element = (flag: Command.Flag.Any): string => {
    const name = flag.char ? `-${flag.char}` : `--${flag.name}`;
    if (flag.type !== 'option') return name;
    const value = flag.helpValue
      ? [flag.helpValue].flat().join(' ')
      : flag.options
        ? flag.options.join('|')
        : '<value>';
    return `${name} ${value}${flag.multiple ? '...' : ''}`;
  };
  for (const flag of ordered) {
    if (shown.has(flag.name)) continue;
    const partners = (flag.exclusive ?? [])
      .map((n) => flags.find((f) => f.name === n))
      .filter((f): f is Command.Flag.Any => f !== undefined && !shown.has(f.name));
    const group = [flag, ...partners];
    for (const f of group) shown.add(f.name);
    const text = group.map(element).join(' | ');
    parts.push(group.some((f) => f.required) ? (group.length > 1 ? `(${text})` : text) : `[${text}]`);
  }
  return parts.join(' ');
}

/**
 * Every line at most `width` columns: a longer one is broken at spaces and continued at its own indentation;
 * an example command (`$ store …`) is continued four columns further, its broken lines ending with ` \` so that
 * it still pastes into a shell. A single word longer than the line (a URL) is left whole.
 */
export function fitLines(text: string, width: number): string {
  let section = '';
  return text
    .split('\n')
    .map((line) => {
      if (/^[A-Z][A-Z ]+$/.test(line)) section = line;
      if (visibleLength(line) <= width) return line;
      const indent = line.length - line.trimStart().length;
      // oclif wraps the prose of examples itself: a line still too wide there is a command (`echo … | store …` too).
      const command = /^\s*\$ /.test(line) || section === 'EXAMPLES';
      return wrapWords(line, width, ' '.repeat(indent + (command ? 4 : 0)), command ? ' \\' : '');
    })
    .join('\n');
}

/**
 * `line` broken at spaces into lines of at most `width` (with `suffix` on each but the last); with `whole`, a
 * bracketed group (`[--link <value>]`) is one word.
 */
function wrapWords(line: string, width: number, continuation: string, suffix: string, whole = false): string {
  const indent = line.slice(0, line.length - line.trimStart().length);
  const out: string[] = [];
  let current = '';
  const words = whole ? bracketedWords(line.trim()) : line.trim().split(/ +/);
  // A list of values too long for any line (a|b|c…) breaks after its bars, joined without spaces.
  const pieces = words.flatMap((word) =>
    visibleLength(word) > width - continuation.length && word.includes('|')
      ? word.split(/(?<=\|)/).map((text, i) => ({ text, glued: i > 0 }))
      : [{ text: word, glued: false }],
  );
  for (const { text, glued } of pieces) {
    const prefix = out.length === 0 ? indent : continuation;
    const candidate = current === '' ? `${prefix}${text}` : `${current}${glued ? '' : ' '}${text}`;
    if (current === '' || visibleLength(candidate) + suffix.length <= width) {
      current = candidate;
      continue;
    }
    out.push(`${current}${suffix}`);
    current = `${continuation}${text}`;
  }
  out.push(current);
  return out.join('\n');
}

/** Words separated by spaces outside brackets: `$ store x [--a <value>] (--b | --c)` has four. */
function bracketedWords(text: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let word = '';
  for (const ch of text) {
    if (ch === ' ' && depth === 0) {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    if (ch === '[' || ch === '(') depth++;
    if ((ch === ']' || ch === ')') && depth > 0) depth--;
    word += ch;
  }
  if (word !== '') words.push(word);
  return words;
}

function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001B\[[0-9;]*m/g, '').length;
}
