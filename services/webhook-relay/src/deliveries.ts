import { createHash } from 'node:crypto';
import type { WebhookTrigger } from '@feedback/events';
import type { Where } from '@feedback/read-store';

/** One attempt to hand a delivery to its endpoint. */
export interface Attempt {
  at: string;
  /** Null when no answer came (timeout, refused target, network error). */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead' | 'cancelled';

/**
 * One event for one webhook. Its id is the `webhook-id` header: derived from the event and the
 * webhook, so consuming an event twice finds the same delivery instead of making another.
 */
export type Delivery = {
  id: string;
  _position: number;
  webhookId: string;
  projectId: string;
  accountId: string | null;
  /** The bus partition whose consumer owns (and alone sends) this delivery. */
  partition: number;
  /** Deliveries of one lane (one comment to one webhook) go out in log order. */
  lane: string;
  eventId: string;
  /** The request that caused the event: logs of every attempt carry it. */
  correlationId: string;
  eventType: WebhookTrigger;
  commentId: string;
  /** When the event happened: what a replay's time range selects on. */
  eventAt: string;
  createdAt: string;
  /** The exact bytes sent, the same on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: Attempt[];
  /** Index into the retry schedule of the wait after the next failure. */
  retryStep: number;
  /** Epoch ms of the next attempt; null once the delivery is settled. */
  nextAttemptAt: number | null;
  /** Why it is dead or cancelled. */
  reason: string | null;
};

export const DELIVERIES = 'deliveries';
// The dispatcher's resync, the delivery log, a replay's time range.
export const deliveryIndexes = [['status', 'partition', 'nextAttemptAt'], ['webhookId', '_position'], ['webhookId', 'eventAt']];

export function deliveryId(eventId: string, webhookId: string): string {
  return `msg_${createHash('sha256').update(`${eventId}:${webhookId}`).digest('base64url').slice(0, 27)}`;
}

/** The deliveries a replay of `webhookId` over [from, to] sends again: their events happened in the range. */
export function replayed(webhookId: string, from: string, to: string): Where {
  return { webhookId, eventAt: { gte: new Date(from).toISOString(), lte: new Date(to).toISOString() } };
}

export const laneOf = (webhookId: string, commentId: string) => `${webhookId}:${commentId}`;

/** The wait before retry `step`, ±10 % so that endpoints coming back are not hit by a herd. */
export function retryDelay(schedule: number[], step: number, random = Math.random): number | null {
  const base = schedule[step];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** A Retry-After header (seconds or an HTTP date) in ms, capped at the longest scheduled wait. */
export function retryAfterMs(header: string | undefined, now: number, cap: number): number | null {
  if (!header) return null;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms) || ms < 0) return null;
  return Math.min(ms, cap);
}
