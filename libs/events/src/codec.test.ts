import t from 'tap';
import { decodeRecordedEvent, encodeEvent, upcast, type Upcasters } from './codec.js';
import { currentSchemaVersion } from './catalogue.js';

const meta = { actor: { type: 'system' as const, id: 't' }, correlationId: 'c', causationId: 'c' };

t.test('encode validates the data and stamps id, version and time', async (t) => {
  const event = encodeEvent({ type: 'CommentArchived', data: { commentId: 'C' } }, meta);
  t.match(event, { type: 'CommentArchived', schemaVersion: 1, data: { commentId: 'C' }, metadata: meta });
  t.match(event.id, /^[0-9A-Z]{26}$/);
  t.throws(() => encodeEvent({ type: 'CommentArchived', data: {} as never }, meta), 'invalid data never reaches the log');
});

t.test('an old event still reads after its schema changed', async (t) => {
  // Pretend CommentTitleChanged v2 renamed `title` to `newTitle`: v1 rows are upcast on read.
  const original = currentSchemaVersion.CommentTitleChanged;
  currentSchemaVersion.CommentTitleChanged = 2;
  t.teardown(() => {
    currentSchemaVersion.CommentTitleChanged = original;
  });
  const registry: Upcasters = { CommentTitleChanged: { 1: (data) => ({ ...data, title: String(data.title).toUpperCase() }) } };
  t.same(upcast('CommentTitleChanged', 1, { commentId: 'C', title: 'old' }, registry), { commentId: 'C', title: 'OLD' });
  const decoded = decodeRecordedEvent(
    { id: 'x', type: 'CommentTitleChanged', data: { commentId: 'C', title: 'old' }, stream: 'comment-C', revision: 1, position: 9, occurredAt: '2026-01-01T00:00:00Z', schemaVersion: 1, metadata: meta },
    registry,
  );
  t.match(decoded, { schemaVersion: 2, data: { title: 'OLD' } });
  t.throws(() => upcast('CommentTitleChanged', 1, {}, {}), /No upcaster/);
  t.throws(() => upcast('NoSuchEvent', 1, {}), /Unknown event type/);
});
