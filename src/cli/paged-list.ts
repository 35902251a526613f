import type { Command } from '@oclif/core';
import { BaseCommand } from './base-command.js';
import type { PagingFlagValues } from '../flags/common.js';
import { type Column, chooseFormat, plural } from '../output/format.js';
import { writeOut } from '../output/io.js';
import { isTTY } from '../output/terminal.js';
import type { ListPage, Paging } from '../services/common/paging.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../platform/pagination.js';

/**
 * What the lists that page (`orders list`, `products list`) share, so they page, stream and speak alike:
 * the paging flags (src/flags/common.ts) read one way, rows streamed as the pages arrive (TSV and CSV; a
 * table needs every row to size its columns), and one set of notes on stderr ("The first 30 of 45 orders", …).
 */
export abstract class PagedListCommand<T extends typeof Command> extends BaseCommand<T> {
  /** The paging flags as the services take them; `--per-page` alone is refused before anything is sent. */
  protected async pagingOf(flags: PagingFlagValues, one: string): Promise<Paging> {
    if (flags['per-page'] !== undefined && flags.page === undefined) {
      const { UsageError } = await import('../errors.js');
      throw new UsageError(`--per-page works with --page (it sets the size of that page); use --limit N for the first N ${one}s.`);
    }
    return { limit: flags.limit, all: flags.all, page: flags.page, perPage: flags['per-page'] };
  }

  /**
   * Prints the pages under `columns` and says on stderr when nothing matched or more did; returns the rows for
   * `--json`. Streamed rows are printed and not kept, so a store of any size lists in constant memory.
   */
  protected async printPages<Row>(
    pages: AsyncIterable<ListPage<Row>>,
    columns: Column<Row>[],
    opts: { paging: Paging; one: string; csv?: boolean },
  ): Promise<Row[]> {
    const json = this.jsonEnabled();
    if (opts.paging.all) {
      // A read of every page makes much short-lived garbage (each page parsed, checked and written): keep the heap near what is live.
      const { limitHeapGrowth } = await import('./heap.js');
      limitHeapGrowth();
    }
    if (json && this.flags.jq === undefined && (opts.paging.all || (opts.paging.limit ?? 0) > MAX_PER_PAGE)) {
      await this.streamJson(pages);
      return undefined as unknown as Row[];
    }
    const streaming = !json && chooseFormat({ csv: opts.csv }, isTTY()) !== 'table';
    const kept: Row[] = [];
    let shown = 0;
    let headed = false;
    let total: number | undefined;
    for await (const page of pages) {
      total = page.total ?? total;
      if (streaming) {
        await this.renderList(page.items, columns, { csv: opts.csv, header: !headed });
        // TSV writes its header above the first row, CSV above the first page (even an empty one).
        headed ||= Boolean(opts.csv) || page.items.length > 0;
        shown += page.items.length;
      } else {
        kept.push(...page.items);
      }
    }
    // Without a single page (the store's empty-list 404) CSV still gets its header.
    if (!streaming || !headed) await this.renderList(kept, columns, { csv: opts.csv });
    if (!streaming) shown = kept.length;
    if (!json) this.noteMore(shown, total, opts);
    return kept;
  }

  /**
   * `--json` of a long read: the same array `printJson` writes (2-space indent), written a record at a time so
   * that `--all` on a store of any size holds one page, not the store. (`--jq` needs the whole value.)
   */
  private async streamJson<Row>(pages: AsyncIterable<ListPage<Row>>): Promise<void> {
    const fields = this.jsonFieldList;
    let checked = false;
    let count = 0;
    for await (const page of pages) {
      let text = '';
      for (const row of page.items) {
        if (fields && !checked) {
          await this.checkJsonFields(Object.keys(row as object));
          checked = true;
        }
        text += `${count === 0 ? '[\n' : ',\n'}  ${JSON.stringify(this.pickJsonFields(row), null, 2).replace(/\n/g, '\n  ')}`;
        count++;
      }
      if (text) await writeOut(this.io.stdout, text);
    }
    await writeOut(this.io.stdout, count === 0 ? '[]\n' : '\n]\n');
  }

  private noteMore(shown: number, total: number | undefined, { paging, one }: { paging: Paging; one: string }): void {
    if (shown === 0) this.note(`No ${one}s match.`);
    else if (paging.all || total === undefined || total <= shown) return;
    else if (paging.page === undefined) this.note(`The first ${shown} of ${plural(total, one)}; --limit N or --all for more.`);
    else {
      const last = Math.ceil(total / (paging.perPage ?? DEFAULT_PER_PAGE));
      this.note(`Page ${paging.page} of ${last} (${plural(total, one)}); --page N for more, --all for every page.`);
    }
  }
}
