import { z } from 'zod';

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** "a, b,c" as ["a", "b", "c"]; absent stays absent. */
const commaList = z
  .string()
  .optional()
  .transform((v) => (v ? v.split(',').map((item) => item.trim()).filter(Boolean) : undefined));

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
/** "5s,30s,2m,1h" as milliseconds. */
const durations = (fallback: string) => z
  .string()
  .default(fallback)
  .transform((value, ctx) => {
    const out: number[] = [];
    for (const part of value.split(',')) {
      const match = part.trim().match(/^(\d+)(ms|s|min|m|h)$/);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${part.trim()}" is not a duration like 500ms, 5s, 2m or 1h` });
        return z.NEVER;
      }
      out.push(Number(match[1]) * units[match[2]!]!);
    }
    return out;
  });

/** Every setting comes from the environment and is checked once, at start-up. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the event log lives: the SQLite file under DATA_DIR, or a KurrentDB/EventStoreDB URL. */
  EVENT_STORE: z.enum(['sqlite', 'kurrentdb']).default('sqlite'),
  KURRENTDB_URL: z.string().optional(),
  /** Where read models live: SQLite under DATA_DIR, or MongoDB. */
  READ_STORE: z.enum(['sqlite', 'mongodb']).default('sqlite'),
  MONGODB_URL: z.string().optional(),
  MONGODB_DATABASE: z.string().default('feedback'),
  /** The service's public root ({app_url}); used in links and the MCP address. */
  APP_URL: z.url().default('http://localhost:3000'),
  /** How long a write waits for the read models before answering anyway. */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * Writes answered before the read models include them (`X-Consistency: eventual`) that one
   * command API instance lets run ahead of the projector; past this many, the next one waits.
   */
  UNPROJECTED_WRITES_LIMIT: z.coerce.number().int().min(0).default(32),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** Waits between delivery attempts; after the last one a delivery is dead-lettered. */
  WEBHOOK_RETRY_SCHEDULE: durations('5s,30s,2m,10m,30m,1h,3h,6h'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(120_000).default(10_000),
  /** Deliveries in flight at once per relay instance. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /** How the relay receives the log: straight from the event store, or over Kafka. */
  BUS: z.enum(['embedded', 'kafka']).default('embedded'),
  KAFKA_BROKERS: commaList,
  KAFKA_TOPIC: z.string().regex(/^[A-Za-z0-9._-]+$/).default('feedback.events'),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(6),
  KAFKA_CLIENT_ID: z.string().default('feedback-service'),
  /** The gateway: where writes go, and the query API instances reads are spread over. */
  GATEWAY_COMMAND_URL: z.url().optional(),
  GATEWAY_QUERY_URLS: commaList.pipe(z.array(z.url()).optional()),
  /** Events the projector applies per read-store commit at most. */
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got ${JSON.stringify(env[String(issue.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = parsed.data;
  if (config.EVENT_STORE === 'kurrentdb' && !config.KURRENTDB_URL) throw new ConfigError('Invalid configuration:\n  KURRENTDB_URL: required when EVENT_STORE=kurrentdb');
  if (config.BUS === 'kafka' && !config.KAFKA_BROKERS?.length) throw new ConfigError('Invalid configuration:\n  KAFKA_BROKERS: required when BUS=kafka');
  if (config.READ_STORE === 'mongodb' && !config.MONGODB_URL) throw new ConfigError('Invalid configuration:\n  MONGODB_URL: required when READ_STORE=mongodb');
  return config;
}
