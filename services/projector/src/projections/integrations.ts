import type { InboundAction, IntegrationScope, WebhookTrigger } from '@feedback/events';
import { defineProjection } from './projection.js';

export interface IntegrationTokenDoc {
  id: string;
  tokenId: string;
  accountId: string;
  scopes: IntegrationScope[];
  revoked: boolean;
  issuedAt: string;
}

/** By token hash: how the query API recognises an integration token. */
export const integrationTokensProjection = defineProjection<IntegrationTokenDoc>({
  collection: 'integrationTokens',
  indexes: [['accountId']],
  handles: ['IntegrationTokenIssued', 'IntegrationTokenRevoked'],
  documentId: (event) => ('tokenHash' in event.data ? event.data.tokenHash : null),
  evolve(doc, event) {
    if (event.type === 'IntegrationTokenIssued') {
      const { tokenHash, tokenId, accountId, scopes } = event.data;
      return { id: tokenHash, tokenId, accountId, scopes, revoked: false, issuedAt: event.occurredAt };
    }
    if (event.type === 'IntegrationTokenRevoked') return doc && { ...doc, revoked: true };
    return doc;
  },
});

export interface InboundTokenDoc {
  id: string;
  tokenHash: string;
  accountId: string;
  projectId: string | null;
  actions: InboundAction[];
  revoked: boolean;
  issuedAt: string;
}

export const inboundTokensProjection = defineProjection<InboundTokenDoc>({
  collection: 'inboundTokens',
  indexes: [['projectId', 'issuedAt'], ['accountId']],
  handles: ['InboundTokenIssued', 'InboundTokenRevoked'],
  documentId: (event) => ('tokenId' in event.data ? event.data.tokenId : null),
  evolve(doc, event) {
    if (event.type === 'InboundTokenIssued') {
      const { tokenId, tokenHash, accountId, projectId, actions } = event.data;
      return { id: tokenId, tokenHash, accountId, projectId, actions, revoked: false, issuedAt: event.occurredAt };
    }
    if (event.type === 'InboundTokenRevoked') return doc && { ...doc, revoked: true };
    return doc;
  },
});

export interface WebhookDoc {
  id: string;
  projectId: string;
  name: string;
  event: WebhookTrigger;
  url: string;
  method: 'POST' | 'PUT';
  authMode: 'none' | 'bearer' | 'basic';
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Webhook settings as listed to the owner: never the secrets. */
export const webhooksProjection = defineProjection<WebhookDoc>({
  collection: 'webhooks',
  indexes: [['projectId', 'createdAt']],
  handles: ['WebhookCreated', 'WebhookUpdated', 'WebhookDeleted', 'WebhookDisabledByReceiver'],
  documentId: (event) => ('webhookId' in event.data ? event.data.webhookId : null),
  evolve(doc, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const { webhookId, projectId, name, url, method, auth, enabled } = event.data;
        return { id: webhookId, projectId, name, event: event.data.event, url, method, authMode: auth.mode, enabled, createdAt: event.occurredAt, updatedAt: event.occurredAt };
      }
      case 'WebhookUpdated': {
        if (!doc) return null;
        const { name, url, method, auth, enabled } = event.data;
        return {
          ...doc,
          name: name ?? doc.name,
          event: event.data.event ?? doc.event,
          url: url ?? doc.url,
          method: method ?? doc.method,
          authMode: auth?.mode ?? doc.authMode,
          enabled: enabled ?? doc.enabled,
          updatedAt: event.occurredAt,
        };
      }
      case 'WebhookDeleted':
        return null;
      case 'WebhookDisabledByReceiver':
        return doc && { ...doc, enabled: false, disabledReason: `endpoint answered ${event.data.statusCode}`, updatedAt: event.occurredAt };
      default:
        return doc;
    }
  },
});
