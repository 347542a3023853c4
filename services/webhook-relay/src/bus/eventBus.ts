import type { StoredEvent } from '@feedback/events';

/** The events of one append, in order: what one command caused on one stream. */
export interface Commit {
  events: StoredEvent[];
}

/** Consecutive commits of one partition, in log order. */
export interface BusBatch {
  partition: number;
  commits: Commit[];
}

export interface BusHandlers {
  /** Called one batch at a time per partition; the batch counts as consumed once it resolves. */
  handle(batch: BusBatch): Promise<void>;
  /** The partitions this instance consumes now (it changes when instances join or leave). */
  assigned(partitions: number[]): void;
}

/**
 * The port between the event log and the webhook relay. Every event reaches some consumer at
 * least once; the events of one project (so those of each of its comments) stay in order.
 */
export interface EventBus {
  start(handlers: BusHandlers): Promise<void>;
  stop(): Promise<void>;
  /** Null when healthy, else what is wrong (for /health). */
  problem(): string | null;
  /**
   * The log position up to which every event has been handed to this relay, where the bus can
   * tell (it survives restarts, unlike what this process has seen); null where it cannot.
   */
  handedOver(): Promise<number | null>;
}
