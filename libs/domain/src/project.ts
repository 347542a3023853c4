import type { FeedbackEvent, WebhookAuth, WebhookTrigger } from '@feedback/events';
import type { Decider } from './decider.js';
import { notFound } from './errors.js';
import { normalizeEmail } from './normalize.js';

// Project = one site: its name and settings, its clients (reviewers) and its webhooks.
// The project's creation is recorded in its account's stream (see account.ts).

export interface Client {
  email: string;
  name: string;
  approved: boolean;
  /** Moves on at every revoke or removal: login tokens issued under an older epoch stop working. */
  epoch: number;
  removed: boolean;
}

export interface Webhook {
  webhookId: string;
  name: string;
  event: WebhookTrigger;
  url: string;
  method: 'POST' | 'PUT';
  auth: WebhookAuth;
  enabled: boolean;
  signingSecret: string;
}

export interface ProjectState {
  name: string | null;
  settings: Record<string, unknown>;
  clients: Map<string, Client>;
  webhooks: Map<string, Webhook>;
}

export type WebhookChanges = Partial<Omit<Webhook, 'webhookId' | 'signingSecret'>>;

export type ProjectCommand =
  | { type: 'RenameProject'; projectId: string; name: string }
  | { type: 'ChangeProjectSettings'; projectId: string; settings: Record<string, unknown> }
  | { type: 'AddClient'; projectId: string; email: string; name: string; autoApprove: boolean }
  | { type: 'SetClientApproval'; projectId: string; email: string; approved: boolean }
  | { type: 'RemoveClient'; projectId: string; email: string }
  | ({ type: 'CreateWebhook'; projectId: string } & Webhook)
  | { type: 'UpdateWebhook'; projectId: string; webhookId: string; changes: WebhookChanges }
  | { type: 'DeleteWebhook'; projectId: string; webhookId: string }
  | { type: 'DisableWebhookByReceiver'; projectId: string; webhookId: string; deliveryId: string; statusCode: number }
  | { type: 'RequestDeliveryRetry'; projectId: string; webhookId: string; deliveryId: string }
  | { type: 'RequestWebhookReplay'; projectId: string; webhookId: string; from: string; to: string };

export interface ProjectResult {
  client?: Client;
  created?: boolean;
  webhook?: Webhook;
}

export const initialProjectState = (): ProjectState => ({ name: null, settings: {}, clients: new Map(), webhooks: new Map() });

export function evolveProject(state: ProjectState, event: FeedbackEvent): ProjectState {
  switch (event.type) {
    case 'ProjectRenamed':
      state.name = event.data.name;
      return state;
    case 'ProjectSettingsChanged':
      state.settings = { ...state.settings, ...event.data.settings };
      return state;
    case 'ClientAdded': {
      const key = normalizeEmail(event.data.email);
      const previous = state.clients.get(key);
      state.clients.set(key, { email: event.data.email, name: event.data.name, approved: event.data.approved, epoch: (previous?.epoch ?? 0) + 1, removed: false });
      return state;
    }
    case 'ClientRenamed': {
      const client = state.clients.get(normalizeEmail(event.data.email));
      if (client) client.name = event.data.name;
      return state;
    }
    case 'ClientApproved': {
      const client = state.clients.get(normalizeEmail(event.data.email));
      if (client) client.approved = true;
      return state;
    }
    case 'ClientRevoked': {
      const client = state.clients.get(normalizeEmail(event.data.email));
      if (client) {
        client.approved = false;
        client.epoch += 1;
      }
      return state;
    }
    case 'ClientRemoved': {
      const client = state.clients.get(normalizeEmail(event.data.email));
      if (client) {
        client.removed = true;
        client.approved = false;
        client.epoch += 1;
      }
      return state;
    }
    case 'WebhookCreated': {
      const { projectId: _p, ...webhook } = event.data;
      state.webhooks.set(webhook.webhookId, webhook);
      return state;
    }
    case 'WebhookUpdated': {
      const webhook = state.webhooks.get(event.data.webhookId);
      if (webhook) {
        const { projectId: _p, webhookId: _w, ...changes } = event.data;
        for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(webhook, { [key]: value });
      }
      return state;
    }
    case 'WebhookDeleted':
      state.webhooks.delete(event.data.webhookId);
      return state;
    case 'WebhookDisabledByReceiver': {
      const webhook = state.webhooks.get(event.data.webhookId);
      if (webhook) webhook.enabled = false;
      return state;
    }
    default:
      return state;
  }
}

/** The client as the API sees it, or undefined when absent or removed. */
export function findClient(state: ProjectState, email: string): Client | undefined {
  const client = state.clients.get(normalizeEmail(email));
  return client && !client.removed ? client : undefined;
}

export function decideProject(command: ProjectCommand, state: ProjectState): { events: FeedbackEvent[]; result: ProjectResult } {
  const { projectId } = command;
  switch (command.type) {
    case 'RenameProject':
      if (state.name === command.name) return { events: [], result: {} };
      return { events: [{ type: 'ProjectRenamed', data: { projectId, name: command.name } }], result: {} };
    case 'ChangeProjectSettings':
      if (Object.keys(command.settings).length === 0) return { events: [], result: {} };
      return { events: [{ type: 'ProjectSettingsChanged', data: { projectId, settings: command.settings } }], result: {} };
    case 'AddClient': {
      const existing = findClient(state, command.email);
      if (existing) {
        if (existing.name === command.name) return { events: [], result: { client: existing, created: false } };
        return {
          events: [{ type: 'ClientRenamed', data: { projectId, email: existing.email, name: command.name } }],
          result: { client: { ...existing, name: command.name }, created: false },
        };
      }
      const email = command.email.trim();
      const previousEpoch = state.clients.get(normalizeEmail(email))?.epoch ?? 0;
      const client: Client = { email, name: command.name, approved: command.autoApprove, epoch: previousEpoch + 1, removed: false };
      return { events: [{ type: 'ClientAdded', data: { projectId, email, name: command.name, approved: command.autoApprove } }], result: { client, created: true } };
    }
    case 'SetClientApproval': {
      const client = findClient(state, command.email);
      if (!client) throw notFound('Client not found');
      if (client.approved === command.approved) return { events: [], result: { client } };
      const data = { projectId, email: client.email };
      return {
        events: [command.approved ? { type: 'ClientApproved', data } : { type: 'ClientRevoked', data }],
        result: { client: { ...client, approved: command.approved } },
      };
    }
    case 'RemoveClient': {
      const client = findClient(state, command.email);
      if (!client) throw notFound('Client not found');
      return { events: [{ type: 'ClientRemoved', data: { projectId, email: client.email } }], result: { client } };
    }
    case 'CreateWebhook': {
      const { type: _t, ...data } = command;
      const { projectId: _p, ...webhook } = data;
      return { events: [{ type: 'WebhookCreated', data }], result: { webhook } };
    }
    case 'UpdateWebhook': {
      const webhook = state.webhooks.get(command.webhookId);
      if (!webhook) throw notFound('Webhook not found');
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([key, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(webhook[key as keyof Webhook])),
      ) as WebhookChanges;
      const updated = { ...webhook, ...changes };
      if (Object.keys(changes).length === 0) return { events: [], result: { webhook } };
      return { events: [{ type: 'WebhookUpdated', data: { projectId, webhookId: webhook.webhookId, ...changes } }], result: { webhook: updated } };
    }
    case 'DeleteWebhook':
      if (!state.webhooks.has(command.webhookId)) throw notFound('Webhook not found');
      return { events: [{ type: 'WebhookDeleted', data: { projectId, webhookId: command.webhookId } }], result: {} };
    case 'DisableWebhookByReceiver': {
      const webhook = state.webhooks.get(command.webhookId);
      // Deleted or already off: the 410 changes nothing.
      if (!webhook || !webhook.enabled) return { events: [], result: {} };
      const { type: _t, ...data } = command;
      return { events: [{ type: 'WebhookDisabledByReceiver', data }], result: {} };
    }
    case 'RequestDeliveryRetry': {
      if (!state.webhooks.has(command.webhookId)) throw notFound('Webhook not found');
      const { type: _t, ...data } = command;
      return { events: [{ type: 'WebhookDeliveryRetryRequested', data }], result: {} };
    }
    case 'RequestWebhookReplay': {
      if (!state.webhooks.has(command.webhookId)) throw notFound('Webhook not found');
      const { type: _t, ...data } = command;
      return { events: [{ type: 'WebhookReplayRequested', data }], result: {} };
    }
  }
}

export const projectDecider: Decider<ProjectState, ProjectCommand, ProjectResult> = {
  initialState: initialProjectState,
  evolve: evolveProject,
  decide: decideProject,
};
