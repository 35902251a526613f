import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { cliEnv, clientFor, requestRecorder, writesOf } from '../helpers/sandbox.js';

/**
 * Issue 30, "Done when" — images done right: a catalog with local image files imports (each sent as its content,
 * platform.md §12); re-imported on the sandbox, which keeps every image under a CDN URL named after its file and
 * never the URL it was sent, it sends no image request; the same with URL images. A bad image (missing, not an
 * image, 10 MB or more) stops the import before its first request, naming file, line and column.
 * `products images add ID ./foto.jpg` sends the file.
 */

let sandbox: RunningSandbox;
let env: NodeJS.ProcessEnv;
let dir: string;
const recorder = requestRecorder();

const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 2)]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'catalog-images-'));
  mkdirSync(join(dir, 'fotos'));
  writeFileSync(join(dir, 'fotos', 'frente.jpg'), JPG);
  writeFileSync(join(dir, 'fotos', 'espalda.png'), PNG);
  writeFileSync(join(dir, 'fotos', 'dibujo.bmp'), Buffer.from('BM not an image the store takes'));
  writeFileSync(join(dir, 'fotos', 'enorme.jpg'), JPG);
  truncateSync(join(dir, 'fotos', 'enorme.jpg'), 10_000_000);
});

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'empty', rate: 'off', onRequest: recorder.onRequest });
  env = cliEnv(sandbox, 'catalog-images');
});
afterAll(() => sandbox?.close());

const product = (handle: string) => sandbox.state.defaultStore()!.products.list().find((p) => Object.values(p.handle).includes(handle))!;
const fileNames = (handle: string) => product(handle).images.map((i) => i.src.split('/').pop());

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function store(args: string[], cwd?: string) {
  recorder.take();
  const r = await runInProcess(args, { env, cwd });
  const received = recorder.take();
  return { ...r, writes: writesOf(received), images: writesOf(received).filter((q) => q.path.endsWith('/images')) };
}

describe('products import: images as files or URLs', () => {
  it('local files are sent as their content, with alt texts; the sandbox names them on its CDN', async () => {
    const csv = file('local.csv', 'handle,name,sku,price,images,image_alt\ncamisa,Camisa,C-1,10,fotos/frente.jpg|fotos/espalda.png,Frente|\n');
    const r = await store(['products', 'import', csv]);
    expect(r.code, r.stderr).toBe(0);
    expect(fileNames('camisa')).toEqual(['frente-640-0.jpg', 'espalda-640-0.png']);
    expect(product('camisa').images.map((i) => i.alt)).toEqual([['Frente'], []]);
    // A path is no URL the store could download: the files went as their content, one request each.
    expect(r.images).toHaveLength(2);
  });

  it('re-imported, the images the store renamed are known: no request', async () => {
    const r = await store(['products', 'import', join(dir, 'local.csv')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.writes).toHaveLength(0);
    expect(r.stdout).toMatch(/0 created, 0 updated, 1 unchanged/);
  });

  it('URL images alike: sent in the product POST, stored under the CDN, not sent again', async () => {
    const urls = ['https://proveedor.example.com/img/gorra-1.jpg', 'https://proveedor.example.com/img/gorra-2.jpg?v=3'];
    const csv = file('urls.csv', `handle,name,sku,price,images\ngorra,Gorra,G-1,10,${urls.join('|')}\n`);
    const first = await store(['products', 'import', csv]);
    expect(first.code, first.stderr).toBe(0);
    expect(fileNames('gorra')).toEqual(['gorra-1-640-0.jpg', 'gorra-2-640-0.jpg']);
    const again = await store(['products', 'import', csv]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.writes).toHaveLength(0);
    // A third image is the only one sent.
    const more = file('urls-more.csv', `handle,name,sku,price,images\ngorra,Gorra,G-1,10,${urls.join('|')}|https://proveedor.example.com/img/gorra-3.jpg\n`);
    const added = await store(['products', 'import', more]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.images).toHaveLength(1);
    expect(added.writes).toHaveLength(1);
    expect(fileNames('gorra')).toEqual(['gorra-1-640-0.jpg', 'gorra-2-640-0.jpg', 'gorra-3-640-0.jpg']);
  });

  it('an export of the store imports back with no image request', async () => {
    const out = join(dir, 'export.csv');
    const exported = await store(['products', 'export', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const r = await store(['products', 'import', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.writes).toHaveLength(0);
  });

  it('--images-dir: relative paths start there', async () => {
    const other = mkdtempSync(join(tmpdir(), 'catalog-images-csv-'));
    const csv = join(other, 'taza.csv');
    writeFileSync(csv, 'handle,name,sku,price,images,image_position\ntaza,Taza,T-1,10,frente.jpg|espalda.png,|1\n');
    const missing = await store(['products', 'import', csv]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`taza.csv, line 2, column 5 (images): image file "frente.jpg" not found (looked for ${join(other, 'frente.jpg')})`);
    const r = await store(['products', 'import', csv, '--images-dir', join(dir, 'fotos')]);
    expect(r.code, r.stderr).toBe(0);
    expect(fileNames('taza')).toEqual(['espalda-640-0.png', 'frente-640-0.jpg']);
  });

  it('a bad image stops the import before its first request: file, line and column', async () => {
    const csv = file('bad.csv', 'handle,name,sku,price,images\nuno,Uno,U-1,10,fotos/dibujo.bmp\ndos,Dos,D-1,10,fotos/enorme.jpg\ntres,Tres,T-3,10,ftp://example.com/a.jpg\n');
    const r = await store(['products', 'import', csv]);
    expect(r.code).toBe(2);
    expect(r.writes).toHaveLength(0);
    expect(r.stderr).toContain('bad.csv, line 2, column 5 (images): image file "fotos/dibujo.bmp" is not a gif, jpg, png, webp image (by its content)');
    expect(r.stderr).toContain('bad.csv, line 3, column 5 (images): image file "fotos/enorme.jpg" is 10.0 MB; the store takes files under 10 MB');
    expect(r.stderr).toContain('bad.csv, line 4, column 5 (images): "ftp://example.com/a.jpg" is not an http(s) URL, nor a file');
  });
});

describe('products images add', () => {
  it('takes a local file relative to the working directory, checked before the first request', async () => {
    const res = await clientFor(sandbox).post('/products', { name: 'Foto', variants: [{ sku: 'F-1', price: 1 }] });
    const id = String(res.body.id);
    const r = await store(['products', 'images', 'add', id, './fotos/frente.jpg', 'https://example.com/otra.jpg', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { src: string }[]).map((i) => i.src.split('/').pop())).toEqual(['frente-640-0.jpg', 'otra-640-0.jpg']);
    const bad = await store(['products', 'images', 'add', id, './fotos/otra.jpg', './fotos/frente.jpg'], dir);
    expect(bad.code).toBe(2);
    expect(bad.writes).toHaveLength(0);
    expect(bad.stderr).toContain('image file "./fotos/otra.jpg" not found');
  });
});

describe('products import - (standard input)', () => {
  it('reads relative image paths from the working directory', async () => {
    const r = await runInProcess(['products', 'import', '-'], { env, cwd: dir, input: 'handle,name,sku,price,images\nvaso,Vaso,V-1,10,fotos/frente.jpg\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(fileNames('vaso')).toEqual(['frente-640-0.jpg']);
  });
});
