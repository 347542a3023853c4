import type { EventStore } from '@feedback/event-store';
import type { HttpApp } from '@feedback/http';
import type { ReadStore } from '@feedback/read-store';

export interface HealthSources {
  service: string;
  eventStore?: Pick<EventStore, 'headPosition'>;
  readStore?: ReadStore;
  checkpointName?: string;
  /** Further parts of the service: each says null when healthy, else what is wrong. */
  components?: Record<string, () => string | null>;
}

/** GET /health: 200 when every backend this process uses answers, 503 naming what is down. */
export function healthRoute(app: HttpApp, sources: HealthSources) {
  app.get('/health', async (_request, reply) => {
    const checks: Record<string, unknown> = {};
    let ok = true;
    let head: number | null = null;
    if (sources.eventStore) {
      try {
        head = await sources.eventStore.headPosition();
        checks.eventStore = { status: 'up', head };
      } catch (error) {
        ok = false;
        checks.eventStore = { status: 'down', error: (error as Error).message };
      }
    }
    if (sources.readStore) {
      try {
        const checkpoint = await sources.readStore.getCheckpoint(sources.checkpointName ?? 'main');
        const position = checkpoint?.position ?? 0;
        checks.readStore = { status: 'up', checkpoint: position, ...(head !== null ? { lagEvents: Math.max(0, head - position) } : {}) };
      } catch (error) {
        ok = false;
        checks.readStore = { status: 'down', error: (error as Error).message };
      }
    }
    for (const [name, problem] of Object.entries(sources.components ?? {})) {
      const wrong = problem();
      if (wrong) ok = false;
      checks[name] = wrong ? { status: 'down', error: wrong } : { status: 'up' };
    }
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', service: sources.service, checks });
  });
}
