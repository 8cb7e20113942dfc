/**
 * The page behind a payment link: the order, with Pay and Fail buttons that settle it and send the
 * browser on to the merchant's callback_success or callback_fail.
 */
import { ORDER_STATES } from '../contract/fields.js';
import { formatAmount } from '../contract/money.js';
import type { SandboxOrder } from './orders.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function paymentPage(order: SandboxOrder, notice?: string): string {
  const open = order.status === ORDER_STATES.pending;
  const fields: Array<[string, unknown]> = [
    ['Order', order.orderNumber ?? order.uuid],
    ['Description', order.description],
    ['Amount', formatAmount(order.amountCents)],
    ['Status', order.status],
  ];
  const rows = fields
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(String(value))}</td></tr>`)
    .join('');
  const actions = open
    ? `<form method="post" action="/pay/${order.uuid}/pay"><button type="submit" id="pay">Pay</button></form>
<form method="post" action="/pay/${order.uuid}/fail"><button type="submit" id="fail">Fail</button></form>`
    : `<p>This order is ${escapeHtml(order.status)}; it can no longer be paid here.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay order ${escapeHtml(order.uuid)} · payorder sandbox</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto}th{text-align:left;padding-right:1rem}
form{display:inline-block;margin:1rem 1rem 0 0}button{font-size:1rem;padding:.5rem 1.5rem}</style></head>
<body><h1>payorder sandbox checkout</h1>${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}
<table>${rows}</table>${actions}
<p><small>No real money moves here.</small></p></body></html>`;
}

export function notFoundPage(): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>No such order</h1></body></html>';
}
