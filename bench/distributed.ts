import type { Ceiling } from './measure.js';
import type { HttpRow, Results } from './results.js';

export async function runDistributed(_ceiling: Ceiling, _scratch: string, _say: (line: string) => void): Promise<{ skip: string } | { http: { rows: HttpRow[]; lag: Results['projectionLag'][number] }; webhooks: Results['webhooks'][number] }> {
  return { skip: 'not yet' };
}
