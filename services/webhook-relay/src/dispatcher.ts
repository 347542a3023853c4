import { deliveries, type Logger } from '@feedback/platform';
import type { Change, ReadStore } from '@feedback/read-store';
import { DELIVERIES, retryAfterMs, retryDelay, type Attempt, type Delivery } from './deliveries.js';
import { Lanes, type Ticket } from './lanes.js';
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
  /** Deliveries the intake has just stored: they are scheduled without a query. */
  enqueue(stored: Delivery[]): void;
  /** Makes deliveries pending again, due now, keeping their id and their attempts so far. */
  requeue(ids: string[]): Promise<void>;
}

/** How often the store is searched for pending deliveries this relay does not know of yet. */
const RESYNC_MS = 1000;
const RESYNC_PAGE = 500;
/** The longest wait a Retry-After header can ask for. */
const RETRY_AFTER_CAP_MS = 6 * 3_600_000;

/** Deliveries held in memory beyond this many are read from the store when they are sent. */
const HELD_DOCS = 10_000;

const ticketOf = (delivery: Delivery, hold: boolean): Ticket => ({
  id: delivery.id,
  lane: delivery.lane,
  position: delivery._position,
  partition: delivery.partition,
  dueAt: delivery.nextAttemptAt ?? 0,
  doc: hold ? delivery : undefined,
});

/**
 * Sends due deliveries, `concurrency` at a time. Every delivery and attempt is in the store, so
 * a restarted relay finds what is pending and sends it; the schedule is kept in memory
 * (`Lanes`), filled by the intake as it stores deliveries and by a search of the store at start,
 * on a partition assignment and every second (a retry or replay another relay instance stored).
 * Outcomes of attempts that end together are written in one commit.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, logger } = options;
  let owned = new Set<number>();
  let stopped = true;
  let loop: Promise<void> | null = null;
  const lanes = new Lanes();
  const flights = new Map<string, Promise<void>>();
  const busyLanes = new Set<string>();
  let nextResyncAt = 0;
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

  const save = batchedCommits(store);
  /** Puts a pending delivery of an owned partition on the schedule (a partition may have moved away meanwhile). */
  const schedule = (delivery: Delivery) => {
    if (owned.has(delivery.partition)) lanes.add(ticketOf(delivery, lanes.size < HELD_DOCS));
  };

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

  /** The lane's later deliveries show the time they wait until: their head's retry. */
  async function parkFollowers(lane: string, until: number) {
    const followers = await store.getMany(DELIVERIES, lanes.followers(lane).map((t) => t.id));
    for (const follower of followers.values() as Iterable<Delivery>)
      if (follower.status === 'pending' && (follower.nextAttemptAt ?? 0) < until) await save({ ...follower, nextAttemptAt: until });
  }

  async function attempt(delivery: Delivery, project: RelayProject | undefined): Promise<void> {
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
    if (next.status === 'pending') {
      schedule(next);
      await parkFollowers(delivery.lane, next.nextAttemptAt!);
    } else lanes.remove(delivery.id, Date.now());
  }

  function launch(delivery: Delivery, project: RelayProject | undefined) {
    const flight = attempt(delivery, project)
      .catch((error) => {
        // The ticket stays: the delivery is tried again once the store takes writes.
        if (owned.has(delivery.partition)) lanes.add({ ...ticketOf(delivery, false), dueAt: Date.now() + RESYNC_MS });
        logger.error({ err: error, deliveryId: delivery.id }, 'delivery attempt could not be recorded; it will be tried again');
      })
      .finally(() => {
        flights.delete(delivery.id);
        busyLanes.delete(delivery.lane);
        wake();
      });
    flights.set(delivery.id, flight);
  }

  /** Launches what is due (one read of the deliveries and their projects for all of it). */
  async function launchDue(): Promise<number> {
    const free = options.concurrency - flights.size;
    if (free <= 0) return 0;
    const tickets = lanes.takeDue(Date.now(), free, (lane) => busyLanes.has(lane));
    if (tickets.length === 0) return 0;
    for (const ticket of tickets) busyLanes.add(ticket.lane);
    let launched = 0;
    try {
      const unheld = tickets.filter((t) => !t.doc).map((t) => t.id);
      const docs = (unheld.length ? await store.getMany(DELIVERIES, unheld) : new Map()) as Map<string, Delivery>;
      for (const ticket of tickets) if (ticket.doc) docs.set(ticket.id, ticket.doc);
      const projects = (await store.getMany('projects', [...new Set([...docs.values()].map((d) => d.projectId))])) as unknown as Map<string, RelayProject>;
      for (const ticket of tickets) {
        const delivery = docs.get(ticket.id);
        // Settled meanwhile (another relay instance, before a partition moved here).
        if (!delivery || delivery.status !== 'pending' || stopped) {
          busyLanes.delete(ticket.lane);
          if (!stopped) lanes.remove(ticket.id, Date.now());
          continue;
        }
        launch(delivery, projects.get(delivery.projectId));
        launched++;
      }
    } catch (error) {
      // Taken off the schedule but not launched: back on it, after the loop's pause.
      for (const ticket of tickets)
        if (!flights.has(ticket.id)) {
          busyLanes.delete(ticket.lane);
          if (lanes.has(ticket.id)) lanes.add({ ...ticket, dueAt: Date.now() + RESYNC_MS });
        }
      throw error;
    }
    return launched;
  }

  /** Schedules the owned partitions' pending deliveries that the store has and memory does not. */
  async function resync() {
    nextResyncAt = Date.now() + RESYNC_MS;
    if (owned.size === 0) return;
    let cursor: string | null = null;
    let known = 0;
    do {
      const page: { items: Delivery[]; nextCursor: string | null } = await store.find<Delivery>(DELIVERIES, {
        where: { status: 'pending', partition: { in: [...owned] } },
        orderBy: { field: 'nextAttemptAt', direction: 'asc' },
        limit: RESYNC_PAGE,
        cursor,
      });
      for (const delivery of page.items) {
        if (lanes.has(delivery.id) || flights.has(delivery.id)) known++;
        else schedule(delivery);
      }
      cursor = page.nextCursor;
      // A backlog this relay already holds is not read again every second.
    } while (cursor && known < RESYNC_PAGE);
  }

  async function run() {
    while (!stopped) {
      try {
        woken = false;
        if (Date.now() >= nextResyncAt) await resync();
        const launched = await launchDue();
        if (launched === 0 && !stopped) {
          const due = lanes.nextDueAt();
          const until = Math.min(nextResyncAt, flights.size >= options.concurrency || due === null ? Number.POSITIVE_INFINITY : due);
          await sleep(Math.max(0, until - Date.now()));
        }
      } catch (error) {
        logger.error({ err: error }, 'dispatcher failed; trying again in 1 s');
        await sleep(RESYNC_MS);
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
      owned = new Set(partitions);
      lanes.retain((ticket) => owned.has(ticket.partition));
      nextResyncAt = 0;
      wake();
    },
    enqueue(stored) {
      for (const delivery of stored) schedule(delivery);
      if (stored.length) wake();
    },
    async requeue(ids) {
      const now = Date.now();
      for (const id of ids) {
        await flights.get(id);
        const delivery = await store.get<Delivery>(DELIVERIES, id);
        if (!delivery) continue;
        const again: Delivery = { ...delivery, status: 'pending', retryStep: 0, nextAttemptAt: now, reason: null };
        await save(again);
        schedule(again);
      }
      if (ids.length) wake();
    },
  };
}

/**
 * `save(doc)` resolves once the document is committed; saves made in the same turn of the
 * event loop share one commit (the outcomes of attempts that ended together).
 */
function batchedCommits(store: ReadStore): (delivery: Delivery) => Promise<void> {
  let pending: { changes: Change[]; done: Promise<void> } | null = null;
  return (delivery) => {
    if (!pending) {
      const batch: { changes: Change[]; done: Promise<void> } = { changes: [], done: Promise.resolve() };
      batch.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        pending = null;
        return store.commit(batch.changes);
      });
      pending = batch;
    }
    pending.changes.push({ collection: DELIVERIES, id: delivery.id, doc: delivery });
    return pending.done;
  };
}
