import type { MemberRole } from '@feedback/events';
import { normalizeEmail } from '@feedback/domain';
import { defineProjection } from './projection.js';

export interface MemberDoc {
  id: string;
  memberId: string;
  accountId: string;
  email: string;
  emailKey: string;
  name: string;
  role: MemberRole;
  projectIds: string[];
  owner: boolean;
  companyLoginApproved: boolean;
  createdAt: string;
}

export const membersProjection = defineProjection<MemberDoc>({
  collection: 'members',
  indexes: [['accountId', 'createdAt']],
  handles: ['AccountCreated', 'MemberCreated', 'MemberAssigned', 'MemberUnassigned', 'MemberRemoved', 'MemberApprovedForCompanyLogin'],
  documentId: (event) => {
    if (event.type === 'AccountCreated') return event.data.ownerMemberId;
    return 'memberId' in event.data ? event.data.memberId : null;
  },
  evolve(doc, event) {
    switch (event.type) {
      case 'AccountCreated': {
        const { ownerMemberId, accountId, ownerEmail, ownerName } = event.data;
        return { id: ownerMemberId, memberId: ownerMemberId, accountId, email: ownerEmail, emailKey: normalizeEmail(ownerEmail), name: ownerName, role: 'user', projectIds: [], owner: true, companyLoginApproved: true, createdAt: event.occurredAt };
      }
      case 'MemberCreated': {
        const { memberId, accountId, email, name, role, projectIds } = event.data;
        return { id: memberId, memberId, accountId, email, emailKey: normalizeEmail(email), name, role, projectIds, owner: false, companyLoginApproved: false, createdAt: event.occurredAt };
      }
      case 'MemberAssigned':
        return doc && { ...doc, projectIds: [...new Set([...doc.projectIds, event.data.projectId])] };
      case 'MemberUnassigned':
        return doc && { ...doc, projectIds: doc.projectIds.filter((id) => id !== event.data.projectId) };
      case 'MemberRemoved':
        return null;
      case 'MemberApprovedForCompanyLogin':
        return doc && { ...doc, companyLoginApproved: true };
      default:
        return doc;
    }
  },
});
