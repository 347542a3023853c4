import { readFileSync } from 'node:fs';
import { measureWebhooks } from '../bench/measure.js';
const seed = JSON.parse(readFileSync(process.env.SEEDJSON ?? '/tmp/pseed.json', 'utf8'));
const url = 'http://127.0.0.1:4517';
const service = { mode: 'embedded' as const, url, projectorMetricsUrl: `${url}/metrics`, lagMetricsUrls: [`${url}/metrics`], token: seed.token, inboundToken: seed.inboundToken, domainId: seed.bigProject.publicKey, bigIdsFile: seed.bigIdsFile };
for (let i = 0; i < Number(process.env.RUNS ?? 2); i++) await measureWebhooks(service as any, '/tmp', Number(process.env.RATE ?? 500));
