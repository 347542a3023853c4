import type { DefaultProjectAccess, FeedbackEvent, MemberRole } from '@feedback/events';
import type { Decider } from './decider.js';
import { conflict, forbidden, invalid, notFound } from './errors.js';
import { normalizeDomain, normalizeEmail } from './normalize.js';

// Account = the workspace: settings, members and the registry of its projects.

export interface Member {
  memberId: string;
  email: string;
  name: string;
  role: MemberRole;
  projectIds: Set<string>;
  companyLoginApproved: boolean;
  owner: boolean;
}

export interface AccountState {
  accountId: string | null;
  ownerMemberId: string | null;
  defaultProjectAccess: DefaultProjectAccess;
  ssoRequired: boolean;
  members: Map<string, Member>;
  memberIdByEmail: Map<string, string>;
  projects: Map<string, { domain: string; publicKey: string }>;
  projectIdByDomain: Map<string, string>;
}

export type AccountCommand =
  | { type: 'CreateAccount'; accountId: string; name: string; ownerMemberId: string; ownerEmail: string; ownerName: string }
  | { type: 'ChangeAccountSettings'; defaultProjectAccess?: DefaultProjectAccess; ssoRequired?: boolean }
  | { type: 'CreateProject'; projectId: string; publicKey: string; domain: string; name: string }
  | { type: 'CreateMember'; memberId: string; email: string; name: string; role: MemberRole; projectId?: string }
  | { type: 'SetMemberAssignment'; memberId: string; projectId: string; assigned: boolean }
  | { type: 'RemoveMember'; memberId: string }
  | { type: 'ApproveMemberForCompanyLogin'; memberId: string };

export const initialAccountState = (): AccountState => ({
  accountId: null,
  ownerMemberId: null,
  defaultProjectAccess: 'all',
  ssoRequired: false,
  members: new Map(),
  memberIdByEmail: new Map(),
  projects: new Map(),
  projectIdByDomain: new Map(),
});

export function evolveAccount(state: AccountState, event: FeedbackEvent): AccountState {
  switch (event.type) {
    case 'AccountCreated': {
      const { accountId, ownerMemberId, ownerEmail, ownerName } = event.data;
      state.accountId = accountId;
      state.ownerMemberId = ownerMemberId;
      state.members.set(ownerMemberId, {
        memberId: ownerMemberId,
        email: ownerEmail,
        name: ownerName,
        role: 'user',
        projectIds: new Set(),
        companyLoginApproved: true,
        owner: true,
      });
      state.memberIdByEmail.set(normalizeEmail(ownerEmail), ownerMemberId);
      return state;
    }
    case 'AccountSettingsChanged':
      if (event.data.defaultProjectAccess) state.defaultProjectAccess = event.data.defaultProjectAccess;
      if (event.data.ssoRequired !== undefined) state.ssoRequired = event.data.ssoRequired;
      return state;
    case 'ProjectCreated':
      state.projects.set(event.data.projectId, { domain: event.data.domain, publicKey: event.data.publicKey });
      state.projectIdByDomain.set(normalizeDomain(event.data.domain), event.data.projectId);
      return state;
    case 'MemberCreated': {
      const { memberId, email, name, role, projectIds } = event.data;
      state.members.set(memberId, { memberId, email, name, role, projectIds: new Set(projectIds), companyLoginApproved: false, owner: false });
      state.memberIdByEmail.set(normalizeEmail(email), memberId);
      return state;
    }
    case 'MemberAssigned':
      state.members.get(event.data.memberId)?.projectIds.add(event.data.projectId);
      return state;
    case 'MemberUnassigned':
      state.members.get(event.data.memberId)?.projectIds.delete(event.data.projectId);
      return state;
    case 'MemberRemoved':
      state.members.delete(event.data.memberId);
      state.memberIdByEmail.delete(normalizeEmail(event.data.email));
      return state;
    case 'MemberApprovedForCompanyLogin': {
      const member = state.members.get(event.data.memberId);
      if (member) member.companyLoginApproved = true;
      return state;
    }
    default:
      return state;
  }
}

export type AccountResult = { memberId?: string; projectIds?: string[]; changed: boolean };

export function decideAccount(command: AccountCommand, state: AccountState): { events: FeedbackEvent[]; result: AccountResult } {
  if (command.type === 'CreateAccount') {
    if (state.accountId) throw conflict('Account already exists');
    const { type: _type, ...data } = command;
    return { events: [{ type: 'AccountCreated', data }], result: { changed: true, memberId: command.ownerMemberId } };
  }
  const accountId = state.accountId;
  if (!accountId) throw notFound('Account not found');
  switch (command.type) {
    case 'ChangeAccountSettings': {
      const { defaultProjectAccess, ssoRequired } = command;
      const changed =
        (defaultProjectAccess !== undefined && defaultProjectAccess !== state.defaultProjectAccess) ||
        (ssoRequired !== undefined && ssoRequired !== state.ssoRequired);
      if (!changed) return { events: [], result: { changed: false } };
      return { events: [{ type: 'AccountSettingsChanged', data: { accountId, defaultProjectAccess, ssoRequired } }], result: { changed: true } };
    }
    case 'CreateProject': {
      if (state.projectIdByDomain.has(normalizeDomain(command.domain))) throw conflict('A project with this domain already exists');
      const { type: _type, ...data } = command;
      return { events: [{ type: 'ProjectCreated', data: { accountId, ...data } }], result: { changed: true } };
    }
    case 'CreateMember': {
      if (state.memberIdByEmail.has(normalizeEmail(command.email))) throw invalid('A member with this email already exists');
      if (command.projectId && !state.projects.has(command.projectId)) throw notFound('Project not found');
      const projectIds = command.projectId
        ? [command.projectId]
        : state.defaultProjectAccess === 'all'
          ? [...state.projects.keys()]
          : [];
      const { memberId, email, name, role } = command;
      return {
        events: [{ type: 'MemberCreated', data: { accountId, memberId, email: email.trim(), name, role, projectIds } }],
        result: { changed: true, memberId, projectIds },
      };
    }
    case 'SetMemberAssignment': {
      const member = state.members.get(command.memberId);
      if (!member) throw notFound('Member not found');
      if (!state.projects.has(command.projectId)) throw notFound('Project not found');
      if (member.owner) {
        if (!command.assigned) throw forbidden('The account owner has access to every project');
        return { events: [], result: { changed: false } };
      }
      if (member.projectIds.has(command.projectId) === command.assigned) return { events: [], result: { changed: false } };
      const data = { accountId, memberId: member.memberId, projectId: command.projectId };
      return { events: [command.assigned ? { type: 'MemberAssigned', data } : { type: 'MemberUnassigned', data }], result: { changed: true } };
    }
    case 'RemoveMember': {
      const member = state.members.get(command.memberId);
      if (!member) throw notFound('Member not found');
      if (member.owner) throw forbidden('The account owner cannot be removed');
      return { events: [{ type: 'MemberRemoved', data: { accountId, memberId: member.memberId, email: member.email } }], result: { changed: true } };
    }
    case 'ApproveMemberForCompanyLogin': {
      const member = state.members.get(command.memberId);
      if (!member) throw notFound('Member not found');
      if (member.companyLoginApproved) return { events: [], result: { changed: false } };
      return { events: [{ type: 'MemberApprovedForCompanyLogin', data: { accountId, memberId: member.memberId } }], result: { changed: true } };
    }
  }
}

export const accountDecider: Decider<AccountState, AccountCommand, AccountResult> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};
