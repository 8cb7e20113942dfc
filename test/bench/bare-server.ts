/**
 * The yardstick for the sandbox benchmark: a bare node:http server that does the same JSON parse
 * and contract validation as the sandbox's checkout and lookup, and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { readOrderRequest } from '../../src/contract/schemas.js';
import { PATHS } from '../../src/contract/versions.js';

const orders = new Map<string, string>();

const server = createServer((request, response) => {
  let raw = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (raw += chunk));
  request.on('end', () => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    };
    if (!request.headers.authorization) return send(401, { message: 'Unauthorized' });
    if (request.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, { code: '1001' });
      }
      const read = readOrderRequest('v2', body);
      if ('problem' in read) return send(400, { code: '1001' });
      const uuid = randomUUID();
      const order = {
        id: PATHS.lookup('v2', uuid),
        type: 'Order',
        uuid,
        amount: read.draft.amountCents.toString(),
        status: 'PENDING',
        external_reference: null,
        links: {
          checkout_link: `http://x/pay/${uuid}`,
          success: read.draft.successUrl,
          failed: read.draft.failUrl,
        },
      };
      orders.set(uuid, JSON.stringify(order));
      return send(200, order);
    }
    const uuid = request.url!.split('/').pop()!;
    const order = orders.get(uuid);
    return order ? send(200, JSON.parse(order)) : send(404, { message: 'Order not found' });
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
