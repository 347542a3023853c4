import t from 'tap';
import type { FeedbackEvent } from '@feedback/events';
import { accountDecider, type AccountCommand } from './account.js';
import { fold } from './decider.js';
import { DomainError } from './errors.js';

const created: FeedbackEvent = { type: 'AccountCreated', data: { accountId: 'A', name: 'Acme', ownerMemberId: 'O', ownerEmail: 'Owner@Acme.test', ownerName: 'Owner' } };
const project: FeedbackEvent = { type: 'ProjectCreated', data: { accountId: 'A', projectId: 'P1', publicKey: 'sc_1', domain: 'https://acme.test', name: 'Acme' } };
const decide = (history: FeedbackEvent[], command: AccountCommand) => accountDecider.decide(command, fold(accountDecider, history));

t.test('a member per email, compared without case', async (t) => {
  const first = decide([created, project], { type: 'CreateMember', memberId: 'M1', email: 'dev@acme.test', name: 'Dev', role: 'team' });
  t.same(first.events, [{ type: 'MemberCreated', data: { accountId: 'A', memberId: 'M1', email: 'dev@acme.test', name: 'Dev', role: 'team', projectIds: ['P1'] } }]);
  t.throws(() => decide([created, project, ...first.events], { type: 'CreateMember', memberId: 'M2', email: 'DEV@acme.test', name: 'X', role: 'user' }), new DomainError('invalid', 'A member with this email already exists'));
  t.throws(() => decide([created], { type: 'CreateMember', memberId: 'M3', email: 'owner@acme.test', name: 'X', role: 'user' }), DomainError, 'the owner is a member');
});

t.test('the workspace default decides the projects of a new member', async (t) => {
  const none: FeedbackEvent = { type: 'AccountSettingsChanged', data: { accountId: 'A', defaultProjectAccess: 'none' } };
  t.same(decide([created, project, none], { type: 'CreateMember', memberId: 'M', email: 'n@a.test', name: 'N', role: 'team' }).result.projectIds, []);
  t.same(decide([created, project, none], { type: 'CreateMember', memberId: 'M', email: 'n@a.test', name: 'N', role: 'team', projectId: 'P1' }).result.projectIds, ['P1']);
  t.throws(() => decide([created], { type: 'CreateMember', memberId: 'M', email: 'n@a.test', name: 'N', role: 'team', projectId: 'P9' }), new DomainError('not_found', 'Project not found'));
});

t.test('assignment changes only when it differs; the owner stays', async (t) => {
  const member: FeedbackEvent = { type: 'MemberCreated', data: { accountId: 'A', memberId: 'M', email: 'm@a.test', name: 'M', role: 'team', projectIds: [] } };
  const history = [created, project, member];
  t.same(decide(history, { type: 'SetMemberAssignment', memberId: 'M', projectId: 'P1', assigned: true }).events.map((e) => e.type), ['MemberAssigned']);
  t.same(decide(history, { type: 'SetMemberAssignment', memberId: 'M', projectId: 'P1', assigned: false }).events, []);
  t.throws(() => decide(history, { type: 'RemoveMember', memberId: 'O' }), new DomainError('forbidden', 'The account owner cannot be removed'));
  const removed = decide(history, { type: 'RemoveMember', memberId: 'M' });
  t.same(removed.events, [{ type: 'MemberRemoved', data: { accountId: 'A', memberId: 'M', email: 'm@a.test' } }]);
  t.same(decide([...history, ...removed.events], { type: 'CreateMember', memberId: 'M2', email: 'm@a.test', name: 'M', role: 'team' }).events.length, 1, 'the email is free again');
});

t.test('one project per domain; settings change only when they differ', async (t) => {
  t.throws(() => decide([created, project], { type: 'CreateProject', projectId: 'P2', publicKey: 'sc_2', domain: 'HTTPS://ACME.TEST/', name: 'x' }), DomainError);
  t.same(decide([created], { type: 'ChangeAccountSettings', ssoRequired: false }).events, []);
  t.same(decide([created], { type: 'ChangeAccountSettings', ssoRequired: true }).events.map((e) => e.type), ['AccountSettingsChanged']);
  t.throws(() => decide([], { type: 'ChangeAccountSettings', ssoRequired: true }), new DomainError('not_found', 'Account not found'));
});
