/**
 * The environment of every process of the distributed mode on this machine: read models and
 * relay state on a MongoDB-wire server, the bus on Kafka, the event store a SQLite file shared
 * under `dataDir` (production puts EventStoreDB there). `name` keeps databases and topics apart.
 */
export function distributedEnv(options: { dataDir: string; mongoUrl: string; brokers: string[]; name: string }): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    READ_STORE: 'mongodb',
    MONGODB_URL: options.mongoUrl,
    MONGODB_DATABASE: options.name,
    BUS: 'kafka',
    KAFKA_BROKERS: options.brokers.join(','),
    KAFKA_TOPIC: options.name,
    KAFKA_PARTITIONS: '4',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
}
