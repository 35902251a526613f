import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFeedUrl, download, parseHeaders } from '../../../src/client/download.js';

/** A feed server on loopback: what each path answers, and the requests it received. */
let server: Server;
let base: string;
const received: IncomingMessage[] = [];
const dir = mkdtempSync(join(tmpdir(), 'download-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req);
    const path = req.url ?? '';
    if (path.startsWith('/stock.csv')) {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Tue, 01 Sep 2026 10:00:00 GMT' }).end('sku;stock\nA;1\n');
    } else if (path === '/private.csv') {
      if (req.headers.authorization !== 'Bearer s3cr3t-feed-token') return void res.writeHead(401).end();
      res.writeHead(200).end('sku\nA\n');
    } else if (path === '/bomb.csv') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(5 * 1024 * 1024, 'a')));
    } else if (path === '/moved.csv') {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere.csv' }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const to = () => join(dir, `${Math.random().toString(36).slice(2)}.csv`);

describe('download', () => {
  it('downloads with its validators, and a conditional GET with them answers unchanged', async () => {
    const path = to();
    const first = await download({ url: `${base}/stock.csv?token=abc`, maxBytes: 1024, to: path });
    expect(first).toEqual({ status: 'downloaded', bytes: 14, etag: '"v1"', lastModified: 'Tue, 01 Sep 2026 10:00:00 GMT' });
    expect(readFileSync(path, 'utf8')).toBe('sku;stock\nA;1\n');
    const again = await download({ url: `${base}/stock.csv?token=abc`, maxBytes: 1024, to: to(), etag: first.status === 'downloaded' ? first.etag : undefined });
    expect(again).toEqual({ status: 'unchanged' });
    expect(received.at(-1)!.headers['if-none-match']).toBe('"v1"');
  });

  it('sends --header to the feed, and says how to give credentials when they are missing', async () => {
    await expect(download({ url: `${base}/private.csv`, maxBytes: 1024, to: to() })).rejects.toThrow(
      `http://${base.slice(7)}/private.csv answered 401 Unauthorized: give the feed's credentials with --header`,
    );
    const ok = await download({ url: `${base}/private.csv`, headers: parseHeaders(['Authorization: Bearer s3cr3t-feed-token']), maxBytes: 1024, to: to() });
    expect(ok.status).toBe('downloaded');
  });

  it('stops a body larger than the bound, counted after decompression', async () => {
    await expect(download({ url: `${base}/bomb.csv`, maxBytes: 1024 * 1024, to: to() })).rejects.toThrow(/bomb.csv is larger than 1 MB, the most a feed may be/);
  });

  it('follows redirects only to https, and never shows the query', async () => {
    await expect(download({ url: `${base}/moved.csv`, maxBytes: 1024, to: to() })).rejects.toThrow(
      `${base}/moved.csv redirects to http://127.0.0.1:1/elsewhere.csv; redirects are followed only to https.`,
    );
    await expect(download({ url: `${base}/gone.csv?token=secret-in-query`, maxBytes: 1024, to: to() })).rejects.toThrow(
      new RegExp(`^${base}/gone.csv answered 404 Not Found: no feed there; check the URL.$`),
    );
  });

  it('takes https, or http on this machine only, and no credentials in the URL', () => {
    expect(checkFeedUrl('https://erp.example.com/stock.csv').hostname).toBe('erp.example.com');
    expect(checkFeedUrl('http://localhost:8080/stock.csv').hostname).toBe('localhost');
    expect(() => checkFeedUrl('http://erp.example.com/stock.csv')).toThrow('Refusing to download http://erp.example.com/stock.csv over plain HTTP');
    expect(() => checkFeedUrl('https://user:pw@erp.example.com/stock.csv')).toThrow(/credentials with --header/);
    expect(() => checkFeedUrl('ftp://erp.example.com/stock.csv')).toThrow('only https:// URLs');
    expect(() => parseHeaders(['Authorization Bearer x'])).toThrow('--header must look like "Name: value"');
  });
});
