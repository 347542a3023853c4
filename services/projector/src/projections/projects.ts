import { normalizeDomain } from '@feedback/domain';
import { defineProjection } from './projection.js';

export interface ProjectDoc {
  id: string;
  projectId: string;
  accountId: string;
  publicKey: string;
  domain: string;
  normalizedDomain: string;
  name: string;
  settings: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export const projectsProjection = defineProjection<ProjectDoc>({
  collection: 'projects',
  indexes: [['accountId', 'createdAt'], ['publicKey'], ['accountId', 'normalizedDomain']],
  handles: ['ProjectCreated', 'ProjectRenamed', 'ProjectSettingsChanged'],
  documentId: (event) => ('projectId' in event.data ? event.data.projectId : null),
  evolve(doc, event) {
    switch (event.type) {
      case 'ProjectCreated': {
        const { projectId, accountId, publicKey, domain, name } = event.data;
        return { id: projectId, projectId, accountId, publicKey, domain, normalizedDomain: normalizeDomain(domain), name, settings: {}, createdAt: event.occurredAt, updatedAt: event.occurredAt };
      }
      case 'ProjectRenamed':
        return doc && { ...doc, name: event.data.name, updatedAt: event.occurredAt };
      case 'ProjectSettingsChanged':
        return doc && { ...doc, settings: { ...doc.settings, ...event.data.settings }, updatedAt: event.occurredAt };
      default:
        return doc;
    }
  },
});
