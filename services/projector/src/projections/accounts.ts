import type { DefaultProjectAccess } from '@feedback/events';
import { defineProjection } from './projection.js';

export interface AccountDoc {
  id: string;
  accountId: string;
  name: string;
  ownerMemberId: string;
  defaultProjectAccess: DefaultProjectAccess;
  ssoRequired: boolean;
  createdAt: string;
  updatedAt: string;
}

export const accountsProjection = defineProjection<AccountDoc>({
  collection: 'accounts',
  indexes: [],
  handles: ['AccountCreated', 'AccountSettingsChanged'],
  documentId: (event) => ('accountId' in event.data ? event.data.accountId : null),
  evolve(doc, event) {
    switch (event.type) {
      case 'AccountCreated':
        return {
          id: event.data.accountId,
          accountId: event.data.accountId,
          name: event.data.name,
          ownerMemberId: event.data.ownerMemberId,
          defaultProjectAccess: 'all',
          ssoRequired: false,
          createdAt: event.occurredAt,
          updatedAt: event.occurredAt,
        };
      case 'AccountSettingsChanged':
        if (!doc) return null;
        return {
          ...doc,
          defaultProjectAccess: event.data.defaultProjectAccess ?? doc.defaultProjectAccess,
          ssoRequired: event.data.ssoRequired ?? doc.ssoRequired,
          updatedAt: event.occurredAt,
        };
      default:
        return doc;
    }
  },
});
