import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules, checked on the source: every relative import of src/**\/*.ts, static (`import … from`,
 * `export … from`, `import '…'`) and dynamic (`import('…')`), read with the TypeScript parser (so an import
 * shown in a comment does not count). The sandbox is an emulator of the platform: the CLI must not depend on
 * its internals (only the `sandbox` commands start it), and src/platform/ holds the facts both share, so it
 * depends on nothing.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');

interface Edge {
  /** Both paths relative to the repository root, e.g. `src/sandbox/server.ts`. */
  from: string;
  to: string;
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
  for (const candidate of [target, `${target}.ts`, path.join(target, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${path.relative(ROOT, from)} imports ${specifier}, which does not exist`);
}

function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  const add = (specifier: ts.Expression | undefined, dynamic: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const target = resolve(file, specifier.text);
    if (target) edges.push({ from: path.relative(ROOT, file), to: path.relative(ROOT, target), dynamic });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const edges = sourceFiles(SRC).flatMap(importsOf);
const under = (file: string, dir: string) => file.startsWith(`${dir}/`);

/** Strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

describe('architecture', () => {
  it('reads the imports of the source (the parser finds what the rules are about)', () => {
    expect(edges.some((e) => e.from === 'src/sandbox/server.ts' && e.to === 'src/sandbox/http.ts' && !e.dynamic)).toBe(true);
    expect(edges.some((e) => e.from === 'src/sandbox/server.ts' && e.to === 'src/sandbox/context.ts')).toBe(true);
    expect(edges.some((e) => e.dynamic)).toBe(true);
  });

  /**
   * Static imports only: a dynamic import loads its module when called, after both modules are loaded. Type-only
   * imports (`import type`) count too, although they vanish at runtime: a loop of types still ties every file in
   * it to the others (the route ↔ server loop of the sandbox was one), and there is none left to excuse.
   */
  it('no import cycle among src/ files (static imports, type-only ones included)', () => {
    const graph = new Map<string, string[]>();
    for (const e of edges) {
      if (e.dynamic) continue;
      graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
    }
    expect(cycles(graph)).toEqual([]);
  });

  it('nothing outside src/sandbox/ and src/commands/sandbox/ imports src/sandbox/ (static or dynamic)', () => {
    const offenders = edges
      .filter((e) => under(e.to, 'src/sandbox') && !under(e.from, 'src/sandbox') && !under(e.from, 'src/commands/sandbox'))
      .map((e) => `${e.from} → ${e.to}`);
    expect(offenders).toEqual([]);
  });

  it('src/platform/ imports nothing outside src/platform/', () => {
    const offenders = edges.filter((e) => under(e.from, 'src/platform') && !under(e.to, 'src/platform')).map((e) => `${e.from} → ${e.to}`);
    expect(offenders).toEqual([]);
    // Nor any package: the platform module is dependency-free (node built-ins aside, where unavoidable).
    const packages = sourceFiles(path.join(SRC, 'platform')).flatMap((file) =>
      ts
        .createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false)
        .statements.filter(ts.isImportDeclaration)
        .map((s) => (s.moduleSpecifier as ts.StringLiteral).text)
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .map((specifier) => `${path.relative(ROOT, file)} → ${specifier}`),
    );
    expect(packages).toEqual([]);
  });

  /**
   * Which top-level part of src/ may import which: the table of docs/architecture.md, so the document and the
   * code cannot drift apart. A part may always import its own files.
   */
  it('each part of src/ imports only the parts docs/architecture.md allows it', () => {
    const allowed: Record<string, string[]> = {
      commands: ['cli', 'flags', 'views', 'output', 'services', 'auth', 'api', 'client', 'ledger', 'errors', 'platform', 'util', 'sandbox'],
      hooks: ['cli', 'output', 'util'],
      views: ['cli', 'flags', 'output', 'services', 'api', 'client', 'ledger', 'errors', 'platform'],
      cli: ['flags', 'output', 'services', 'auth', 'api', 'client', 'ledger', 'errors', 'platform', 'util'],
      flags: ['services', 'platform'],
      services: ['output', 'auth', 'api', 'client', 'ledger', 'errors', 'platform', 'util'],
      output: ['services', 'auth', 'client', 'errors', 'platform', 'util'],
      auth: ['services', 'client', 'errors', 'util'],
      api: ['client', 'errors', 'platform', 'util'],
      client: ['errors', 'platform', 'util'],
      ledger: ['errors', 'util'],
      errors: ['util'],
      platform: [],
      util: [],
      sandbox: ['platform', 'util'],
    };
    const part = (file: string) => file.replace(/^src\//, '').split('/')[0]!.replace(/\.ts$/, '');
    const offenders = edges
      .filter((e) => part(e.from) !== part(e.to))
      .filter((e) => !(allowed[part(e.from)] ?? []).includes(part(e.to)))
      .map((e) => `${e.from} → ${e.to}`);
    expect(offenders).toEqual([]);
  });

  /**
   * src/services/ is sorted by domain: one folder per capability, no loose files (an index or shared helpers at
   * most), and each folder imports only the folders below it (the table of docs/architecture.md).
   */
  const SERVICE_FOLDERS: Record<string, string[]> = {
    mcp: ['undo', 'invoices', 'shipping', 'catalog-files', 'orders', 'customers', 'catalog', 'bulk', 'runs', 'common'],
    status: ['orders', 'common'],
    invoices: ['orders', 'bulk', 'common'],
    webhooks: ['orders', 'common'],
    undo: ['catalog-files', 'bulk', 'common'],
    'catalog-files': ['catalog', 'bulk', 'common'],
    shipping: ['orders', 'bulk', 'common'],
    orders: ['customers', 'catalog', 'common'],
    customers: ['common'],
    catalog: ['common'],
    bulk: ['common'],
    auth: ['local-sandbox', 'common'],
    'local-sandbox': ['common'],
    'raw-api': ['common'],
    runs: ['common'],
    fleet: [],
    common: [],
  };
  const LOOSE_SERVICE_FILES = new Set(['index.ts']);

  it('src/services/ holds only the folders of docs/architecture.md, and no loose capability file', () => {
    const entries = readdirSync(path.join(SRC, 'services'));
    const folders = entries.filter((name) => statSync(path.join(SRC, 'services', name)).isDirectory());
    const loose = entries.filter((name) => !folders.includes(name) && !LOOSE_SERVICE_FILES.has(name));
    expect(loose).toEqual([]);
    expect(folders.sort()).toEqual(Object.keys(SERVICE_FOLDERS).sort());
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(Object.keys(SERVICE_FOLDERS).filter((folder) => !doc.includes(`| \`services/${folder}/\``))).toEqual([]);
  });

  it('each folder of src/services/ imports only the folders below it', () => {
    const folder = (file: string) => (under(file, 'src/services') ? file.split('/')[2]! : undefined);
    const offenders = edges
      .filter((e) => folder(e.from) && folder(e.to) && folder(e.from) !== folder(e.to))
      .filter((e) => !(SERVICE_FOLDERS[folder(e.from)!] ?? []).includes(folder(e.to)!))
      .map((e) => `${e.from} → ${e.to}`);
    expect(offenders).toEqual([]);
  });

  it('the catalog-file core does not import what stands on it (import/, sync/)', () => {
    const core = (file: string) => under(file, 'src/services/catalog-files') && file.split('/').length === 4;
    const offenders = edges
      .filter((e) => core(e.from) && (under(e.to, 'src/services/catalog-files/import') || under(e.to, 'src/services/catalog-files/sync')))
      .map((e) => `${e.from} → ${e.to}`);
    expect(offenders).toEqual([]);
  });

  /** Files still over the limit, to be split by what they do (issue 27, phase 2): this list only shrinks. */
  const TODO_OVER_500_LINES: string[] = [];

  it('no file in src/ is over 500 lines', () => {
    const long = sourceFiles(SRC)
      .filter((file) => readFileSync(file, 'utf8').trimEnd().split('\n').length > 500)
      .map((file) => path.relative(ROOT, file));
    expect(long.filter((file) => !TODO_OVER_500_LINES.includes(file))).toEqual([]);
    // A file split off the list leaves it: the list names only files still too long.
    expect(TODO_OVER_500_LINES.filter((file) => !long.includes(file))).toEqual([]);
  });
});
