import { createHash, randomBytes } from 'node:crypto';

/** A token is shown once; only its SHA-256 is stored, and it names the token's stream. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Standard Webhooks signing secret: whsec_ + base64 of 32 random bytes. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A project's public key as the widget embeds it. */
export const newPublicKey = () => `sc_${randomBytes(12).toString('hex')}`;
