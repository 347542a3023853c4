// Appends N events to one shared stream from a separate process, retrying on conflicts,
// the way a command handler would. Used by the multi-process test.
import { encodeEvent } from '@feedback/events';
import { WrongExpectedRevisionError } from '../eventStore.js';
import { getSqliteEventStore } from './sqliteEventStore.js';

const [file, name, count] = process.argv.slice(2) as [string, string, string];
const store = getSqliteEventStore({ path: file });
const meta = { actor: { type: 'system' as const, id: name }, correlationId: name, causationId: name };
for (let i = 0; i < Number(count); i++) {
  for (;;) {
    const current = await store.readStream('comment-shared');
    const expected = current.length === 0 ? ('no_stream' as const) : current.length - 1;
    try {
      await store.appendToStream('comment-shared', [encodeEvent({ type: 'CommentArchived', data: { commentId: `${name}${i}` } }, meta)], { expectedRevision: expected });
      break;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}
await store.close();
