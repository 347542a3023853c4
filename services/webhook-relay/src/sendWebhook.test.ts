import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from './sendWebhook.js';

// The SSRF guard at delivery time: the address is checked when connecting, whatever was
// checked when the webhook was saved.
t.test('loopback, private and metadata targets are refused at delivery unless allowed', async (t) => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  const outgoing = (url: string) => ({ url, method: 'POST' as const, auth: { mode: 'none' as const }, headers: {}, body: '{}' });
  const guarded = { timeoutMs: 2000, allowPrivateTargets: false };

  for (const url of [`http://127.0.0.1:${port}/`, 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/', 'http://[::1]:1/', `http://localhost:${port}/`]) {
    const result = await sendWebhook(outgoing(url), guarded);
    t.equal(result.statusCode, null, url);
    t.match(result.error, /target refused/, url);
  }
  t.equal(hits, 0, 'nothing reached the local server');
  const allowed = await sendWebhook(outgoing(`http://localhost:${port}/`), { ...guarded, allowPrivateTargets: true });
  t.equal(allowed.statusCode, 200, 'allowed when the operator says so');
  t.equal(hits, 1);
});
