import type { HttpApp } from '@feedback/http';
import type { QueryDeps } from './deps.js';
import { queryRoutes } from './queryRoutes.js';

export async function registerQueryApi(app: HttpApp, deps: QueryDeps) {
  await app.register(async (external) => queryRoutes(external as unknown as HttpApp, deps), { prefix: '/api/external' });
}
