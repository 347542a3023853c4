import { boot, onShutdown } from '@feedback/runtime';
import { createGateway } from './gateway.js';

// The distributed mode's front door: reads to the query API instances, writes to the command API.
await boot('gateway', async (config, logger) => {
  if (!config.GATEWAY_COMMAND_URL || !config.GATEWAY_QUERY_URLS?.length) {
    process.stderr.write('gateway: Invalid configuration:\n  GATEWAY_COMMAND_URL and GATEWAY_QUERY_URLS are required\n');
    process.exit(2);
  }
  const server = createGateway({ commandUrl: config.GATEWAY_COMMAND_URL, queryUrls: config.GATEWAY_QUERY_URLS, logger });
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  logger.info({ port: config.PORT, command: config.GATEWAY_COMMAND_URL, query: config.GATEWAY_QUERY_URLS }, 'gateway listening');
  onShutdown(logger, config.SHUTDOWN_TIMEOUT_MS, [() => new Promise<void>((resolve) => server.close(() => resolve()))]);
});
