import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every write the CLI makes is on the record (docs/ledger.md): each request of the CLI's source whose method is
 * not GET or HEAD passes a `record` (the ledger's PendingWrite), and no code calls the client's
 * post/put/patch/delete shorthands, which carry none. Read from the source with the TypeScript parser; the
 * sandbox (a server) is not the CLI. The HTTP core refuses such a request at run time too (client/index.ts).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full.endsWith(`${path.sep}sandbox`) ? [] : sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

interface Write {
  where: string;
  recorded: boolean;
}

function writesIn(file: string): Write[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Write[] = [];
  const where = (node: ts.Node) => `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const target = node.expression.expression.getText(source);
      const arg = node.arguments[0];
      if (name === 'request' && arg && ts.isObjectLiteralExpression(arg)) {
        const props = new Map(arg.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(source), p.initializer] as const));
        const shorthand = new Set(arg.properties.filter(ts.isShorthandPropertyAssignment).map((p) => p.name.text));
        const method = props.get('method');
        const literal = method && ts.isStringLiteralLike(method) ? method.text.toUpperCase() : undefined;
        if (literal !== undefined && literal !== 'GET' && literal !== 'HEAD') {
          found.push({ where: where(node), recorded: props.has('record') || shorthand.has('record') });
        }
      } else if (['post', 'put', 'patch', 'delete'].includes(name) && /client$/i.test(target)) {
        found.push({ where: where(node), recorded: false });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// src/auth/oauth.ts posts to the authorization server (a token exchange), not to a store: it uses its own got
// call, not the store client, so it is not found here.

describe('every write is on the record', () => {
  const writes = sourceFiles(SRC).flatMap(writesIn);

  it('finds the writes of the source (the parser sees what the rule is about)', () => {
    expect(writes.some((w) => w.where.startsWith('src/api/variants.ts'))).toBe(true);
  });

  it('each write request passes its ledger record', () => {
    const unrecorded = writes.filter((w) => !w.recorded).map((w) => w.where);
    expect(unrecorded).toEqual([]);
  });
});
