import { normalizeDomain } from '@feedback/domain';
import type { ReadStore } from '@feedback/read-store';
import { ApiError } from './errors.js';

export interface ProjectRef {
  id: string;
  projectId: string;
  accountId: string;
  publicKey: string;
  domain: string;
  name: string;
  settings: Record<string, unknown>;
}

/**
 * Spec 2.1: a domainId is the `sc_` public key, the project id or the domain name.
 * A project of another account answers exactly like one that does not exist.
 */
export async function resolveProject(readStore: ReadStore, accountId: string, domainId: string): Promise<ProjectRef> {
  const key = domainId.trim();
  let project: ProjectRef | null = null;
  if (key.startsWith('sc_')) project = await readStore.findOne<ProjectRef>('projects', { publicKey: key });
  if (!project) project = await readStore.get<ProjectRef>('projects', key);
  if (!project) project = await readStore.findOne<ProjectRef>('projects', { accountId, normalizedDomain: normalizeDomain(key) });
  if (!project || project.accountId !== accountId) throw new ApiError(404, 'Project not found');
  return project;
}
