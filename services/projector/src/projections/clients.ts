import { normalizeEmail } from '@feedback/domain';
import { defineProjection } from './projection.js';

export interface ClientDoc {
  id: string;
  projectId: string;
  email: string;
  name: string;
  approved: boolean;
  createdAt: string;
  updatedAt: string;
}

export const clientDocId = (projectId: string, email: string) => `${projectId}:${normalizeEmail(email)}`;

export const clientsProjection = defineProjection<ClientDoc>({
  collection: 'clients',
  indexes: [['projectId', 'createdAt']],
  handles: ['ClientAdded', 'ClientRenamed', 'ClientApproved', 'ClientRevoked', 'ClientRemoved'],
  documentId: (event) => ('email' in event.data && 'projectId' in event.data ? clientDocId(event.data.projectId, event.data.email) : null),
  evolve(doc, event) {
    switch (event.type) {
      case 'ClientAdded': {
        const { projectId, email, name, approved } = event.data;
        return { id: clientDocId(projectId, email), projectId, email, name, approved, createdAt: event.occurredAt, updatedAt: event.occurredAt };
      }
      case 'ClientRenamed':
        return doc && { ...doc, name: event.data.name, updatedAt: event.occurredAt };
      case 'ClientApproved':
        return doc && { ...doc, approved: true, updatedAt: event.occurredAt };
      case 'ClientRevoked':
        return doc && { ...doc, approved: false, updatedAt: event.occurredAt };
      case 'ClientRemoved':
        return null;
      default:
        return doc;
    }
  },
});
