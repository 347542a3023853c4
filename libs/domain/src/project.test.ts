import t from 'tap';
import type { FeedbackEvent } from '@feedback/events';
import { fold } from './decider.js';
import { DomainError } from './errors.js';
import { findClient, projectDecider, type ProjectCommand } from './project.js';

const decide = (history: FeedbackEvent[], command: ProjectCommand) => projectDecider.decide(command, fold(projectDecider, history));
const added: FeedbackEvent = { type: 'ClientAdded', data: { projectId: 'P', email: 'c@x.test', name: 'C', approved: false } };

t.test('adding a client is idempotent per email and renames when the name differs', async (t) => {
  const first = decide([], { type: 'AddClient', projectId: 'P', email: 'c@x.test', name: 'C', autoApprove: true });
  t.same(first.events, [{ type: 'ClientAdded', data: { projectId: 'P', email: 'c@x.test', name: 'C', approved: true } }]);
  t.equal(first.result.created, true);
  const same = decide([added], { type: 'AddClient', projectId: 'P', email: 'C@X.test', name: 'C', autoApprove: true });
  t.same([same.events, same.result.created, same.result.client?.approved], [[], false, false]);
  const renamed = decide([added], { type: 'AddClient', projectId: 'P', email: 'c@x.test', name: 'Cee', autoApprove: false });
  t.same(renamed.events, [{ type: 'ClientRenamed', data: { projectId: 'P', email: 'c@x.test', name: 'Cee' } }]);
});

t.test('revoking or removing moves the credential epoch on', async (t) => {
  const approved: FeedbackEvent = { type: 'ClientApproved', data: { projectId: 'P', email: 'c@x.test' } };
  const revoked: FeedbackEvent = { type: 'ClientRevoked', data: { projectId: 'P', email: 'c@x.test' } };
  const epochAfter = (history: FeedbackEvent[]) => findClient(fold(projectDecider, history), 'c@x.test')?.epoch;
  const start = epochAfter([added, approved]);
  t.equal(epochAfter([added, approved, revoked, approved]), start! + 1);
  t.equal(findClient(fold(projectDecider, [added, { type: 'ClientRemoved', data: { projectId: 'P', email: 'c@x.test' } }]), 'c@x.test'), undefined);
  t.throws(() => decide([], { type: 'SetClientApproval', projectId: 'P', email: 'c@x.test', approved: true }), new DomainError('not_found', 'Client not found'));
});

t.test('webhook updates record only what changed', async (t) => {
  const created = decide([], { type: 'CreateWebhook', projectId: 'P', webhookId: 'W', name: 'n', event: 'comment', url: 'https://h.test', method: 'POST', auth: { mode: 'none' }, enabled: true, signingSecret: 'whsec_x' });
  const update = decide(created.events, { type: 'UpdateWebhook', projectId: 'P', webhookId: 'W', changes: { enabled: false, name: 'n' } });
  t.same(update.events, [{ type: 'WebhookUpdated', data: { projectId: 'P', webhookId: 'W', enabled: false } }]);
  t.throws(() => decide([], { type: 'DeleteWebhook', projectId: 'P', webhookId: 'W' }), DomainError);
});
