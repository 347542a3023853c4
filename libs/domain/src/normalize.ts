/** Emails compare case-insensitively and without surrounding blanks. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A project's domain compares without scheme, "www."-less form kept as given, trailing slash
 * or letter case: "https://Example.com/" and "example.com" are one project.
 */
export function normalizeDomain(domain: string): string {
  let d = domain.trim().toLowerCase();
  d = d.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  d = d.replace(/[?#].*$/, '');
  d = d.replace(/\/+$/, '');
  return d;
}
