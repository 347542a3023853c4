import { z } from 'zod';
import type { RecordedEvent } from './envelope.js';
import * as accounts from './accounts.js';
import * as comments from './comments.js';
import * as projects from './projects.js';

/** Every event of the system, by type. The type name is the event's one name everywhere. */
export const eventSchemas = { ...accounts, ...projects, ...comments } as const;
export type EventType = keyof typeof eventSchemas;
export const eventTypes = Object.keys(eventSchemas) as EventType[];

/** Current schema version of each event type; bump it together with an upcaster. */
export const currentSchemaVersion: Record<EventType, number> = Object.fromEntries(
  eventTypes.map((type) => [type, 1]),
) as Record<EventType, number>;

type Schemas = typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<Schemas[T]>;
/** Union of every domain event as `{ type, data }`. */
export type FeedbackEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
export type EventOf<T extends EventType> = Extract<FeedbackEvent, { type: T }>;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventSchemas, type);
}

/** Any event of this system as read from the log. */
export type StoredEvent = RecordedEvent<FeedbackEvent>;
