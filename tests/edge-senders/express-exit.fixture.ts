// An app with the Express middleware whose flush timer is ten minutes away. It serves one request
// to itself, closes its server and, in mode `close`, calls the middleware's close(); then it has
// nothing left to do, and must exit on its own (the test waits for it). Prints the sender's stats.
import { once } from 'node:events';
import { request } from 'node:http';
import { crawlIngestMiddleware } from '@vt/edge-senders/express-middleware';
import express from 'express';

const [ingestUrl = '', mode = 'close'] = process.argv.slice(2);
const middleware = crawlIngestMiddleware({
  ingestUrl,
  propertyId: 'c0ffee00-0000-4000-8000-000000000003',
  token: 'token',
  flushIntervalMs: 600_000,
});
const app = express();
app.use(middleware);
app.get('/', (_req, res) => {
  res.send('ok');
});
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as { port: number };
await new Promise((resolve) => {
  const headers = { host: 'shop.example', 'user-agent': 'GPTBot/1.2' };
  request(`http://127.0.0.1:${port}/`, { headers, agent: false }, (res) => res.resume().on('end', resolve)).end();
});
server.closeAllConnections();
server.close();
if (mode === 'close') await middleware.close();
console.log(JSON.stringify(middleware.stats()));
