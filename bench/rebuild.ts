import { createLogger, loadConfig } from '@feedback/platform';
import { openBaseReadStore, openEventStore } from '@feedback/runtime';
import { rebuildProjections } from '../apps/cli/src/rebuild.js';

// `projections rebuild` in a process of its own, so that its peak resident memory is its own.
const config = loadConfig();
const logger = createLogger('warn', 'bench-rebuild');
const eventStore = openEventStore(config, 'replay');
const base = await openBaseReadStore(config);
const result = await rebuildProjections(eventStore, base, logger);
await base.close();
await eventStore.close();
// resourceUsage().maxRSS is in kilobytes: the high-water mark of the whole process.
process.stdout.write(`${JSON.stringify({ ...result, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
