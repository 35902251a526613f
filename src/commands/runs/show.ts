import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { csvFlag } from '../../flags/common.js';
import { writeOut } from '../../output/io.js';
import type { ShownChange } from '../../services/runs/runs.js';

export default class RunsShow extends BaseCommand<typeof RunsShow> {
  static summary = 'Show a run: its summary, then every change it made, old → new.';
  static description = `RUN is a run's id (or a unique start of it), or "last". The changes are grouped like a dry run's plan: one line per record, each field old → new; what did not end confirmed is marked [failed] or [unknown] (sent, with its reply lost, or never answered before the process ended), and an irreversible action says why. --json prints {run, changes}, --csv one row per change; both stream, so a run of any size starts printing at once.`;

  static examples = ['<%= config.bin %> runs show last', '<%= config.bin %> runs show 01JD3Z6Q8R --csv > changes.csv', '<%= config.bin %> runs show 01JD3Z6Q8R --json'];

  static enableJsonFlag = true;
  static baseFlags = BaseCommand.recordFlags;

  static args = {
    run: Args.string({ description: 'The run: its id, a unique start of it, or "last".', required: true }),
  };

  static flags = { csv: csvFlag };

  async run(): Promise<unknown> {
    const { openRun } = await import('../../services/runs/runs.js');
    const shown = openRun(this.args.run);
    try {
      if (this.jsonEnabled()) {
        if (this.flags.jq === undefined && !this.jsonFieldList) return await this.streamJson(shown.run, shown.changes);
        return { run: shown.run, changes: [...shown.changes] };
      }
      const { changeColumns, changeLines, runSummaryLines } = await import('../../views/runs.js');
      const out = this.io.stdout;
      if (this.flags.csv) {
        const { renderRows } = await import('../../output/render.js');
        // One page at a time: the rows are written as they are read.
        let page: ShownChange[] = [];
        let header = true;
        const flush = async () => {
          let text = '';
          await renderRows(page, changeColumns, 'csv', (rows) => (text += rows), { header });
          await writeOut(out, text);
          header = false;
          page = [];
        };
        for (const change of shown.changes) {
          page.push(change);
          if (page.length >= 1000) await flush();
        }
        if (page.length > 0 || header) await flush();
        return undefined;
      }
      const { isTTY, terminalWidth } = await import('../../output/terminal.js');
      const width = isTTY() ? terminalWidth() : Number.MAX_SAFE_INTEGER;
      await writeOut(out, runSummaryLines(shown.run).map((l) => `${l}\n`).join(''));
      let text = '';
      for (const line of changeLines(shown.changes, width)) {
        text += `${line}\n`;
        if (text.length > 16_384) {
          await writeOut(out, text);
          text = '';
        }
      }
      if (text) await writeOut(out, text);
      return undefined;
    } finally {
      shown.close();
    }
  }

  /**
   * `--json`: `{run, changes}` written a change at a time (the same value `--jq` gets whole), each chunk after the
   * last has drained (output/io.ts writeOut).
   */
  private async streamJson(run: unknown, changes: Iterable<unknown>): Promise<undefined> {
    const indent = (value: unknown, by: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${by}`);
    let text = `{\n  "run": ${indent(run, '  ')},\n  "changes": [`;
    let count = 0;
    for (const change of changes) {
      text += `${count === 0 ? '\n' : ',\n'}    ${indent(change, '    ')}`;
      count++;
      if (text.length > 16_384) {
        await writeOut(this.io.stdout, text);
        text = '';
      }
    }
    await writeOut(this.io.stdout, `${text}${count === 0 ? ']' : '\n  ]'}\n}\n`);
    return undefined;
  }
}
