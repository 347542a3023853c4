import { ConfigError, createLogger, loadConfig, type Config, type Logger } from '@feedback/platform';

/**
 * Start-up for every entry point: configuration checked first, one clear line and exit code 2
 * when it is wrong, a backend that cannot be reached reported the same way (no stack trace).
 */
export async function boot<T>(service: string, start: (config: Config, logger: Logger) => Promise<T>): Promise<T> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${service}: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL, service);
  try {
    return await start(config, logger);
  } catch (error) {
    process.stderr.write(`${service}: cannot start: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
