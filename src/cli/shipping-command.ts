import type { Command } from '@oclif/core';
import { BulkCommand } from './bulk-command.js';
import type { ShippingFlags } from '../services/shipping/moves.js';
import type { MovedShipment, ShippingResult } from '../services/shipping/ship-order.js';

/**
 * The base of `orders pack|ship|deliver` and `fulfillment-orders update` (docs/platform.md §10; a BulkCommand, for
 * `orders ship --file`): each is its flags
 * and one call of `moveShipments`, which checks the input before any request, moves the order's shipments and says
 * on stderr what moved and what was skipped (stdout stays for `--json`).
 */
export abstract class ShippingCommand<T extends typeof Command> extends BulkCommand<T> {
  protected async moveShipments(flags: ShippingFlags, order: string, selection: string[] | undefined, verb: string): Promise<ShippingResult> {
    const { parseFulfillmentOrderRef, parseOrderId } = await import('../services/common/validate.js');
    const { shippingRequest } = await import('../services/shipping/moves.js');
    const orderId = parseOrderId(order, 'ORDER');
    const shipments = (selection ?? []).map((ref) => parseFulfillmentOrderRef(ref, '--fulfillment-order'));
    const request = shippingRequest(flags);
    const { moveOrderShipments } = await import('../services/shipping/ship-order.js');
    const result = await moveOrderShipments(await this.client(), { order: orderId, request, shipments }, await this.recorder(), { onNotice: (n) => this.note(n) });
    if (!this.jsonEnabled()) {
      for (const line of shippingLines(result, verb)) this.note(line);
    }
    return result;
  }
}

/** What was moved, then what was skipped and why, one line each (stderr). */
const DONE: Record<string, string> = {
  UNPACKED: 'Unpacked',
  PACKED: 'Packed',
  DISPATCHED: 'Dispatched',
  READY_FOR_PICKUP: 'Made ready for pickup',
  DELIVERED: 'Delivered',
};

function movedLine(orderLabel: string, m: MovedShipment): string {
  const how = m.by === 'tracking event' ? `, by delivered tracking event ${m.tracking_event_id ?? ''}`.trimEnd() : '';
  const tracking = m.tracking_code ? `, tracking ${[m.tracking_code, m.tracking_url].filter(Boolean).join(' ')}` : '';
  return `${DONE[m.to] ?? `Moved to ${m.to}`} shipment ${m.number ?? m.id} of order ${orderLabel} (${m.from} → ${m.to}${tracking}${how}).`;
}

/** The lines to print; `verb` names the command's move for the line said when nothing moved ("pack"). */
function shippingLines(result: ShippingResult, verb: string): string[] {
  const order = result.order_number !== undefined ? `#${result.order_number}` : String(result.order_id);
  const lines = result.moved.map((m) => movedLine(order, m));
  for (const s of result.skipped) lines.push(`Skipped shipment ${s.number ?? s.id} (${s.status}): ${s.reason}.`);
  if (result.moved.length === 0) lines.push(`Nothing to ${verb} in order ${order}; nothing was sent.`);
  return lines;
}
