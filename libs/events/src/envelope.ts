import { z } from 'zod';

/** Who caused an event. Every event carries one. */
export const Actor = z.object({
  type: z.enum(['operator', 'integrationToken', 'inboundToken', 'member', 'client', 'system']),
  id: z.string(),
  name: z.string().optional(),
  email: z.string().optional(),
  accountId: z.string().optional(),
});
export type Actor = z.infer<typeof Actor>;

export const EventMetadata = z.object({
  actor: Actor,
  correlationId: z.string(),
  /** The command (or event) that caused this event; events of one append share it. */
  causationId: z.string(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** An event as the domain produces it, before the store gives it an identity and a place. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** What an adapter is asked to persist. */
export interface EventToAppend {
  id: string;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: EventMetadata;
  occurredAt: string;
}

export interface RecordedEventBase {
  /** ULID, unique across the log. */
  id: string;
  stream: string;
  /** 0-based position of the event inside its stream. */
  revision: number;
  /** Position in the whole log: strictly increasing; checkpoints store it. */
  position: number;
  occurredAt: string;
  schemaVersion: number;
  metadata: EventMetadata;
}

/** An event as read back from the log: immutable, positioned, attributable. Distributes over unions so `type` narrows `data`. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? RecordedEventBase & { type: E['type']; data: E['data'] }
  : never;
