import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process, served at /metrics by every service. */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics });

export const httpRequests = new Histogram({
  name: 'feedback_http_request_duration_seconds',
  help: 'HTTP requests by method, route and status, with their latency',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metrics],
});

export const eventsAppended = new Counter({
  name: 'feedback_events_appended_total',
  help: 'Events appended to the log by this process, by type',
  labelNames: ['type'],
  registers: [metrics],
});

/**
 * A gauge computed when /metrics is scraped, so that measuring it (a read of the log's head)
 * stays off the hot path. The service says how to measure it.
 */
function gaugeOnScrape(name: string, help: string) {
  let measure: (() => Promise<number>) | null = null;
  new Gauge({
    name,
    help,
    registers: [metrics],
    async collect() {
      if (measure) this.set(await measure().catch(() => Number.NaN));
    },
  });
  return {
    measureWith(source: () => Promise<number>) {
      measure = source;
    },
  };
}

export const projectionLagEvents = gaugeOnScrape('feedback_projection_lag_events', 'Events in the log not yet in the read models');
export const projectionLagSeconds = new Gauge({ name: 'feedback_projection_lag_seconds', help: 'Time from append to visible of the last event applied', registers: [metrics] });
export const projectionVisibleSeconds = new Histogram({
  name: 'feedback_projection_visible_seconds',
  help: 'Time from append to visible in the read models, per event applied',
  buckets: [0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});

export const deliveries = new Counter({
  name: 'feedback_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (delivered, retry, dead, cancelled)',
  labelNames: ['outcome'],
  registers: [metrics],
});
export const relayLagEvents = gaugeOnScrape('feedback_relay_consumer_lag_events', 'Events in the log after the last one this relay consumed');
