import type { Column } from '../output/format.js';
import type { FleetMember } from '../services/fleet/members.js';

/** How the stores' standard output becomes the fleet's. */
export type FleetOutputMode = 'json' | 'ndjson' | 'lines';

export interface FleetOutputOptions {
  mode: FleetOutputMode;
  /** The fleet's stdout is a terminal: the stores' rows are drawn as one table at the end. */
  table: boolean;
  write(text: string): void;
  writeError(text: string): void;
  /** Draws the merged table (output/render.ts, loaded by the caller). */
  renderTable?(rows: string[][], columns: Column<string[]>[]): Promise<void>;
}

interface StoreOutput {
  /** The store's first line was a table's header with the STORE column: a list, merged with the others'. */
  list?: boolean;
  /** Everything else the store printed, shown as its own block when it ends. */
  block: string[];
}

/**
 * The stores' output merged as one command's (docs/fleet.md "Output"): tables and TSV/CSV lists as one list (a
 * leading STORE column, one header); `--json` one array whose records carry `store` and `store_id`; `--ndjson`
 * lines the same; anything else (a record, a summary) as a block under the store's name. Errors and notes go to
 * stderr as they come, each line led by `[profile]`.
 */
export class FleetOutput {
  private readonly stores = new Map<string, StoreOutput>();
  private header?: string;
  private readonly tableRows: string[][] = [];
  private readonly json: unknown[] = [];
  private readonly jsonText = new Map<string, string[]>();

  constructor(private readonly opts: FleetOutputOptions) {}

  line(member: FleetMember, stream: 'stdout' | 'stderr', line: string): void {
    if (stream === 'stderr') {
      this.opts.writeError(`${this.stderrLine(member, line)}\n`);
      return;
    }
    if (this.opts.mode === 'json') {
      const lines = this.jsonText.get(member.profile) ?? [];
      lines.push(line);
      this.jsonText.set(member.profile, lines);
      return;
    }
    if (this.opts.mode === 'ndjson') {
      this.opts.write(`${withStore(member, line)}\n`);
      return;
    }
    const store = this.storeOf(member);
    if (store.list === undefined) store.list = /^store[\t,]/.test(line);
    if (!store.list) {
      store.block.push(line);
      return;
    }
    if (this.header === undefined) {
      this.header = line;
      if (!this.opts.table) this.opts.write(`${line}\n`);
      return;
    }
    if (line === this.header) return;
    if (this.opts.table) this.tableRows.push(line.split('\t'));
    else this.opts.write(`${line}\n`);
  }

  /** A store ended: its JSON joins the array, its block is shown. */
  done(member: FleetMember): void {
    if (this.opts.mode === 'json') {
      const text = (this.jsonText.get(member.profile) ?? []).join('\n');
      this.jsonText.delete(member.profile);
      if (text.trim() === '') return;
      try {
        const value = JSON.parse(text) as unknown;
        for (const record of Array.isArray(value) ? value : [value]) this.json.push(tagged(member, record));
      } catch {
        this.opts.write(`== ${member.profile} ==\n${text}\n`);
      }
      return;
    }
    const store = this.stores.get(member.profile);
    if (store && store.block.length > 0) this.opts.write(`== ${member.profile} (store ${member.storeId}) ==\n${store.block.join('\n')}\n`);
    if (store) store.block = [];
  }

  /** Every store ended: the JSON array, or the merged table. */
  async finish(): Promise<void> {
    if (this.opts.mode === 'json') {
      this.opts.write(`${JSON.stringify(this.json, null, 2)}\n`);
      return;
    }
    if (this.opts.table && this.header !== undefined && this.opts.renderTable) {
      const names = this.header.split('\t');
      const columns: Column<string[]>[] = names.map((name, i) => ({ header: name, get: (row) => row[i] ?? '', kind: ID_LIKE.test(name) ? 'id' : 'text' }));
      await this.opts.renderTable(this.tableRows, columns);
    }
  }

  private storeOf(member: FleetMember): StoreOutput {
    let store = this.stores.get(member.profile);
    if (!store) {
      store = { block: [] };
      this.stores.set(member.profile, store);
    }
    return store;
  }

  private stderrLine(member: FleetMember, line: string): string {
    if (this.opts.mode !== 'lines' && line.startsWith('{"error"')) return withStore(member, line);
    return `[${member.profile}] ${line}`;
  }
}

/** Columns a merged table never cuts (a name or a note may be cut to fit; an id never). */
const ID_LIKE = /^(store|id|number|sku|status|total|price|stock|currency|.*_id|.*_at|.*_status)$/;

function tagged(member: FleetMember, record: unknown): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return { store: member.profile, store_id: member.storeId, value: record };
  return { store: member.profile, store_id: member.storeId, ...(record as Record<string, unknown>) };
}

/** An NDJSON line with `store` and `store_id` first; a line that is not a JSON object stays as it is. */
function withStore(member: FleetMember, line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    return JSON.stringify(tagged(member, JSON.parse(line)));
  } catch {
    return line;
  }
}
