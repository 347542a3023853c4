import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookAuth } from '@feedback/events';
import { isPrivateAddress } from '@feedback/platform';

export interface Outgoing {
  url: string;
  method: 'POST' | 'PUT';
  auth: WebhookAuth;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  retryAfter?: string;
}

/** The spec's outbound authentication headers (section 5.4). */
export function authHeaders(auth: WebhookAuth): Record<string, string> {
  switch (auth.mode) {
    case 'none':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${auth.token}`, 'x-webhook-token': auth.token };
    case 'basic': {
      const value = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
      return { authorization: value, 'x-webhook-auth': value };
    }
  }
}

class RefusedTarget extends Error {}

// The address is checked when the connection is made, not before: a name that resolves to a
// public address when the webhook is saved and to 169.254.169.254 later is still refused.
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) return callback(new RefusedTarget(`target refused: ${hostname} resolves to ${blocked.address}, a loopback, private, link-local or metadata address`), '', 4);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * One attempt: no redirects followed (a 3xx is an answer like any other non-2xx), the whole
 * exchange bounded by `timeoutMs`, the response body read and thrown away.
 */
export function sendWebhook(outgoing: Outgoing, options: { timeoutMs: number; allowPrivateTargets: boolean }): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let url: URL;
    try {
      url = new URL(outgoing.url);
    } catch {
      return resolve({ statusCode: null, latencyMs: 0, error: 'invalid URL' });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivateTargets && isIP(host) && isPrivateAddress(host))
      return resolve({ statusCode: null, latencyMs: 0, error: `target refused: ${host} is a loopback, private, link-local or metadata address` });
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = Buffer.from(outgoing.body);
    const req = send(url, {
      method: outgoing.method,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'feedback-service-webhooks/1',
        ...authHeaders(outgoing.auth),
        ...outgoing.headers,
      },
      lookup: options.allowPrivateTargets ? undefined : guardedLookup,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    req.on('response', (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve({ statusCode: res.statusCode ?? null, latencyMs: latency(), error: null, retryAfter: res.headers['retry-after'] }));
      res.on('error', (error) => resolve({ statusCode: res.statusCode ?? null, latencyMs: latency(), error: error.message }));
    });
    req.on('error', (error: Error) => {
      const message = error.name === 'AbortError' || error.name === 'TimeoutError' ? `timed out after ${options.timeoutMs} ms` : error.message;
      resolve({ statusCode: null, latencyMs: latency(), error: message });
    });
    req.end(body);
  });
}
