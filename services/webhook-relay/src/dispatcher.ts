import { deliveries, type Logger } from '@feedback/platform';
import type { ReadStore } from '@feedback/read-store';
import { DELIVERIES, retryAfterMs, retryDelay, type Attempt, type Delivery } from './deliveries.js';
import type { RelayProject } from './relayState.js';
import { sendWebhook, type SendResult } from './sendWebhook.js';
import { signatureHeaders } from './signing.js';

export interface DispatcherOptions {
  store: ReadStore;
  logger: Logger;
  schedule: number[];
  timeoutMs: number;
  concurrency: number;
  allowPrivateTargets: boolean;
  /** The endpoint answered 410 Gone: record that the webhook is now disabled. */
  onGone(delivery: Delivery, statusCode: number): Promise<void>;
}

export interface Dispatcher {
  start(): void;
  stop(): Promise<void>;
  /** Only deliveries of these partitions are sent from here (their consumer is this instance). */
  own(partitions: number[]): void;
  /** New deliveries may be due. */
  wake(): void;
  /** Makes deliveries pending again, due now, keeping their id and their attempts so far. */
  requeue(ids: string[]): Promise<void>;
}

const IDLE_POLL_MS = 1000;
/** The longest wait a Retry-After header can ask for. */
const RETRY_AFTER_CAP_MS = 6 * 3_600_000;

/**
 * Sends due deliveries, `concurrency` at a time. Within one lane (one comment, one webhook)
 * only the oldest pending delivery may go, so an endpoint sees a comment's events in order
 * even while one of them waits for a retry. All state lives in the store: a restarted relay
 * finds the retries that are due and sends them.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, logger } = options;
  let owned: number[] = [];
  let stopped = true;
  let loop: Promise<void> | null = null;
  const flights = new Map<string, Promise<void>>();
  const busyLanes = new Set<string>();
  let wakeUp: (() => void) | null = null;
  // A wake-up that comes while the loop is busy is remembered, not lost.
  let woken = false;

  const wake = () => {
    woken = true;
    wakeUp?.();
    wakeUp = null;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wakeUp = done;
    });

  const save = (delivery: Delivery) => store.commit([{ collection: DELIVERIES, id: delivery.id, doc: delivery }]);

  async function laneHead(lane: string): Promise<Delivery | null> {
    const page = await store.find<Delivery>(DELIVERIES, { where: { lane, status: 'pending' }, orderBy: { field: '_position', direction: 'asc' }, limit: 1 });
    return page.items[0] ?? null;
  }

  /** The lane's next delivery goes now rather than at the time it was parked until. */
  async function releaseLane(lane: string, now: number) {
    const next = await laneHead(lane);
    if (next && (next.nextAttemptAt ?? 0) > now) await save({ ...next, nextAttemptAt: now });
  }

  function outcome(delivery: Delivery, result: SendResult, now: number): Delivery {
    const attempt: Attempt = { at: new Date(now).toISOString(), statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error };
    const attempts = [...delivery.attempts, attempt];
    const code = result.statusCode;
    if (code !== null && code >= 200 && code < 300) return { ...delivery, attempts, status: 'delivered', nextAttemptAt: null, reason: null };
    if (code === 410) return { ...delivery, attempts, status: 'dead', nextAttemptAt: null, reason: 'the endpoint answered 410 Gone; the webhook was disabled' };
    const wait = retryDelay(options.schedule, delivery.retryStep);
    const why = code === null ? result.error : `the endpoint answered ${code}`;
    if (wait === null) return { ...delivery, attempts, status: 'dead', nextAttemptAt: null, reason: `${why} on the last of ${attempts.length} attempts` };
    const asked = code === 429 || code === 503 ? retryAfterMs(result.retryAfter, now, RETRY_AFTER_CAP_MS) : null;
    return { ...delivery, attempts, retryStep: delivery.retryStep + 1, nextAttemptAt: now + (asked ?? wait), reason: why };
  }

  async function attempt(delivery: Delivery): Promise<void> {
    const project = await store.get<RelayProject>('projects', delivery.projectId);
    const webhook = project?.webhooks[delivery.webhookId];
    let next: Delivery;
    if (!webhook || !webhook.enabled) {
      next = { ...delivery, status: 'cancelled', nextAttemptAt: null, reason: webhook ? 'the webhook is disabled' : 'the webhook was deleted' };
    } else {
      const result = await sendWebhook(
        { url: webhook.url, method: webhook.method, auth: webhook.auth, headers: signatureHeaders(webhook.signingSecret, delivery.id, delivery.body), body: delivery.body },
        { timeoutMs: options.timeoutMs, allowPrivateTargets: options.allowPrivateTargets },
      );
      next = outcome(delivery, result, Date.now());
      if (result.statusCode === 410) await options.onGone(delivery, 410);
    }
    await save(next);
    deliveries.inc({ outcome: next.status === 'pending' ? 'retry' : next.status });
    logger.info({ correlationId: delivery.correlationId, deliveryId: delivery.id, webhookId: delivery.webhookId, status: next.status, statusCode: next.attempts.at(-1)?.statusCode ?? null }, 'delivery attempted');
    if (next.status !== 'pending') {
      await releaseLane(delivery.lane, Date.now());
    }
  }

  function launch(delivery: Delivery) {
    busyLanes.add(delivery.lane);
    const flight = attempt(delivery)
      .catch((error) => logger.error({ err: error, deliveryId: delivery.id }, 'delivery attempt could not be recorded; it will be tried again'))
      .finally(() => {
        flights.delete(delivery.id);
        busyLanes.delete(delivery.lane);
        wake();
      });
    flights.set(delivery.id, flight);
  }

  /** Launches what is due; says how many went and how many wait for a lane in flight. */
  async function tick(): Promise<{ launched: number; blocked: number }> {
    const free = options.concurrency - flights.size;
    if (free <= 0 || owned.length === 0) return { launched: 0, blocked: 0 };
    const now = Date.now();
    const due = await store.find<Delivery>(DELIVERIES, {
      where: { status: 'pending', partition: { in: owned }, nextAttemptAt: { lte: now } },
      orderBy: { field: 'nextAttemptAt', direction: 'asc' },
      limit: Math.min(500, free + busyLanes.size + 50),
    });
    let launched = 0;
    let blocked = 0;
    for (const delivery of due.items) {
      if (launched >= free || stopped) break;
      if (flights.has(delivery.id) || busyLanes.has(delivery.lane)) {
        blocked++;
        continue;
      }
      const head = await laneHead(delivery.lane);
      if (head && head.id !== delivery.id) {
        // An older event of this comment still waits for its retry: this one waits behind it.
        if (head.nextAttemptAt !== null && head.nextAttemptAt > now) await save({ ...delivery, nextAttemptAt: head.nextAttemptAt });
        continue;
      }
      launch(delivery);
      launched++;
    }
    return { launched, blocked };
  }

  async function nextDueIn(): Promise<number> {
    if (owned.length === 0) return IDLE_POLL_MS;
    const next = await store.find<Delivery>(DELIVERIES, { where: { status: 'pending', partition: { in: owned } }, orderBy: { field: 'nextAttemptAt', direction: 'asc' }, limit: 1 });
    const at = next.items[0]?.nextAttemptAt;
    return at == null ? IDLE_POLL_MS : Math.max(0, Math.min(IDLE_POLL_MS, at - Date.now()));
  }

  async function run() {
    while (!stopped) {
      try {
        woken = false;
        const { launched, blocked } = await tick();
        // Flights that end wake the loop, so waiting on them costs no polling.
        if (launched === 0 && !stopped) await sleep(flights.size >= options.concurrency || blocked > 0 ? IDLE_POLL_MS : await nextDueIn());
      } catch (error) {
        logger.error({ err: error }, 'dispatcher failed; trying again in 1 s');
        await sleep(IDLE_POLL_MS);
      }
    }
  }

  return {
    start() {
      stopped = false;
      loop = run();
    },
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.allSettled([...flights.values()]);
    },
    own(partitions) {
      owned = [...partitions];
      wake();
    },
    wake,
    async requeue(ids) {
      const now = Date.now();
      for (const id of ids) {
        await flights.get(id);
        const delivery = await store.get<Delivery>(DELIVERIES, id);
        if (!delivery) continue;
        await save({ ...delivery, status: 'pending', retryStep: 0, nextAttemptAt: now, reason: null });
      }
      if (ids.length) wake();
    },
  };
}
