// Drawing a table of many orders (issue 23): `orders list --all` on a terminal waits for every row, then lays
// the table out (priorities, widths, relative times, colour). Figures for 10,000 orders, as a table at 80
// columns and as TSV, median of 5 runs each after one warm-up. Synthetic rows in the documented order shape;
// no store involved (fetching 10,000 orders is 50 requests and dominated by the rate limit).
import { renderRows } from '../../dist/output/render.js';
import { orderColumns } from '../../dist/views/orders.js';

const ROWS = 10_000;
const now = Date.now();
const rows = Array.from({ length: ROWS }, (_, i) => ({
  id: 1_000_000_000 + i,
  number: i,
  status: i % 7 ? 'open' : 'cancelled',
  payment_status: i % 3 ? 'paid' : 'pending',
  shipping_status: 'unpacked',
  // Both documented offset forms.
  created_at: new Date(now - i * 3_600_000).toISOString().replace('.000Z', i % 2 ? '+0000' : '+00:00'),
  customer: { name: `Cliente Número ${i}`, email: `cliente${i}@example.com` },
  total: `${(i * 37) % 99_999}.00`,
  currency: 'ARS',
  products: [],
}));

for (const format of ['table', 'tsv']) {
  const times = [];
  for (let run = 0; run < 6; run++) {
    const started = process.hrtime.bigint();
    let chars = 0;
    await renderRows(rows, orderColumns, format, (text) => (chars += text.length), { width: 80, color: true, now });
    if (run > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (run === 0 && chars === 0) throw new Error('nothing drawn');
  }
  times.sort((a, b) => a - b);
  console.log(`${format.padEnd(5)} ${ROWS} orders: median ${times[2].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)})`);
}
