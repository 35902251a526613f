import type { Column } from './dialects.js';
import type { ColumnIndex, Draft, Problem, RowState } from './catalog-rows.js';

/** A row's option names and values, checked against the product's earlier rows. */

/** The row's option names and values, checked against the product's earlier rows, as the variant's values. */
export function readOptions(draft: Draft, row: RowState, columns: Column[], idx: ColumnIndex, problems: Problem[]): void {
  const { optionNames: names, optionValues: values, line } = row;
  // Shopify's placeholder option for a product without variations.
  if (row.dialect === 'shopify' && (names[0] ?? '').toLowerCase() === 'title' && (values[0] ?? '').toLowerCase() === 'default title') {
    names.length = 0;
    values.length = 0;
  }
  const spec = draft.spec;
  // The product's first variant row (its DELETE rows and Shopify's image rows aside).
  const first = draft.variantLines.length === 1;
  if (!optionNamesAgree(draft, names, values, idx, row.at)) return;
  if (spec.optionNames.length === 0) {
    if (!first && spec.optionsGiven) {
      problems.push({
        line,
        message: `product "${spec.key}" has no options (line ${spec.line}), so it holds one variant; give its rows option names and values, or use one row`,
      });
    }
    return;
  }
  if (!optionValuesGiven(draft, values, columns, idx, line, row.at, problems)) return;
  row.variant.values = values.slice(0, spec.optionNames.length);
  if (!spellingsAgree(draft, row.variant.values, idx, line, row.at, problems)) return;
  const combo = row.variant.values.join('\u0000');
  const earlier = draft.combos.get(combo);
  if (earlier !== undefined) {
    problems.push({ line, message: `product "${spec.key}" already has the variant ${row.variant.values.join(' / ')} on line ${earlier}` });
  } else {
    draft.combos.set(combo, line);
  }
}

/** The product's first row sets its option names; a later row may repeat them or leave them blank. */
function optionNamesAgree(draft: Draft, names: string[], values: string[], idx: ColumnIndex, at: (column: Column, message: string) => void): boolean {
  const spec = draft.spec;
  const nameColumn = (i: number) => idx.optionNames.find((c) => c.field?.kind === 'optionName' && c.field.index === i);
  if (spec.lines.length === 1) {
    const count = Math.max(names.length, values.length);
    for (let i = 0; i < count; i++) {
      if (!names[i]) {
        const column = nameColumn(i) ?? idx.optionValues[i];
        if (column) at(column, `option ${i + 1} has a value but no name`);
        return false;
      }
    }
    spec.optionNames = names.slice(0, count);
    return true;
  }
  for (let i = 0; i < names.length; i++) {
    if (names[i] && names[i] !== spec.optionNames[i]) {
      at(nameColumn(i)!, `option ${i + 1} is "${spec.optionNames[i] ?? ''}" on line ${spec.line} and "${names[i]}" here; a product's options are the same on every row`);
      return false;
    }
  }
  return true;
}

/** A value for every option of the product, and none for an option it does not have. */
function optionValuesGiven(
  draft: Draft,
  values: string[],
  columns: Column[],
  idx: ColumnIndex,
  line: number,
  at: (column: Column, message: string) => void,
  problems: Problem[],
): boolean {
  const names = draft.spec.optionNames;
  for (let i = 0; i < names.length; i++) {
    if (!values[i]) {
      const column = idx.optionValues.find((c) => c.field?.kind === 'optionValue' && c.field.index === i);
      if (column) at(column, `the value of option "${names[i]}" is empty`);
      else problems.push({ line, message: `no value column for option "${names[i]}"` });
      return false;
    }
  }
  const extra = values.findIndex((v, i) => i >= names.length && v);
  if (extra !== -1) {
    const column = columns.find((c) => c.field?.kind === 'optionValue' && c.field.index === extra)!;
    at(column, `a value for option ${extra + 1}, which the product does not have`);
    return false;
  }
  return true;
}

/** One spelling per option value within a product: the store does not tell values apart by case. */
function spellingsAgree(
  draft: Draft,
  values: string[],
  idx: ColumnIndex,
  line: number,
  at: (column: Column, message: string) => void,
  problems: Problem[],
): boolean {
  for (const [i, value] of values.entries()) {
    const spelling = `${i}\u0000${value.toLowerCase()}`;
    const first = draft.spellings.get(spelling);
    if (!first) draft.spellings.set(spelling, { value, line });
    else if (first.value !== value) {
      const column = idx.optionValues.find((c) => c.field?.kind === 'optionValue' && c.field.index === i);
      const message = `option "${draft.spec.optionNames[i]}" is "${first.value}" on line ${first.line} and "${value}" here; the store does not tell values apart by case, so write one spelling`;
      if (column) at(column, message);
      else problems.push({ line, message });
      return false;
    }
  }
  return true;
}
