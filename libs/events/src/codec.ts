import { newId } from './ids.js';
import type { EventMetadata, EventToAppend, RecordedEventBase } from './envelope.js';
import { currentSchemaVersion, eventSchemas, isEventType, type FeedbackEvent, type StoredEvent } from './catalogue.js';

/** A row as an adapter reads it, before upcasting and validation. */
export type RawRecordedEvent = RecordedEventBase & { type: string; data: unknown };

/**
 * Turns an old event's data into the next version's shape. Registered per (type, fromVersion);
 * chains run until the current version, so the log is never rewritten.
 */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;
export type Upcasters = Partial<Record<string, Record<number, Upcaster>>>;

/** The upcasters of this code base. Empty until a schema first changes; see README "Changing an event". */
export const upcasters: Upcasters = {};

export class UnknownEventError extends Error {
  constructor(readonly eventType: string) {
    super(`Unknown event type ${eventType}`);
  }
}

export function upcast(type: string, version: number, data: unknown, registry: Upcasters = upcasters): unknown {
  if (!isEventType(type)) throw new UnknownEventError(type);
  let current = data as Record<string, unknown>;
  for (let v = version; v < currentSchemaVersion[type]; v++) {
    const step = registry[type]?.[v];
    if (!step) throw new Error(`No upcaster for ${type} from version ${v}`);
    current = step(current);
  }
  return current;
}

/** Raw row → typed, current-version event (validated where it was upcast). Adapters call this on every read. */
export function decodeRecordedEvent(raw: RawRecordedEvent, registry: Upcasters = upcasters): StoredEvent {
  if (!isEventType(raw.type)) throw new UnknownEventError(raw.type);
  const current = currentSchemaVersion[raw.type];
  // Data at the current version was validated by encodeEvent before it was appended, and the
  // log is immutable: parsing it again on every read (every replay, every rebuild) adds nothing.
  // Upcast data is new to this schema, so it is validated.
  if (raw.schemaVersion === current) return raw as StoredEvent;
  const data = upcast(raw.type, raw.schemaVersion, raw.data, registry);
  return { ...raw, data: eventSchemas[raw.type].parse(data), schemaVersion: current } as StoredEvent;
}

/** Domain event + who/why → what the store persists. Validates, so a bad event never reaches the log. */
export function encodeEvent(event: FeedbackEvent, metadata: EventMetadata, now = new Date()): EventToAppend {
  const schema = eventSchemas[event.type];
  return {
    id: newId(now.getTime()),
    type: event.type,
    schemaVersion: currentSchemaVersion[event.type],
    data: schema.parse(event.data),
    metadata,
    occurredAt: now.toISOString(),
  };
}
