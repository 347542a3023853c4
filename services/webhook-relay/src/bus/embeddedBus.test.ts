import t from 'tap';
import { createLogger } from '@feedback/platform';
import { createEmbeddedBus } from './embeddedBus.js';
import { eventBusContract } from './eventBus.contract.js';

const logger = createLogger('silent', 'test');
t.test('embedded bus contract', async (t) => {
  eventBusContract(t, (eventStore, store) => createEmbeddedBus({ eventStore, store, logger }));
});
