/**
 * A rule of the domain refused a command. `kind` says what the caller got wrong;
 * the API maps it to an HTTP status (invalid 400, forbidden 403, not_found 404, conflict 409).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: 'invalid' | 'forbidden' | 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const invalid = (message: string) => new DomainError('invalid', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const conflict = (message: string) => new DomainError('conflict', message);
