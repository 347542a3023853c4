// The shape of bench/results/latest.json and how it is drawn: a Markdown table and an SVG chart.

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
}

export interface HttpRow {
  mode: 'embedded' | 'distributed';
  /** A floor is a bare route doing only what its path cannot avoid (bench/floors.ts). */
  path: 'ceiling' | 'floor' | 'write' | 'read';
  endpoint: string;
  /** 'read-your-writes' or 'eventual' for writes; '' otherwise. */
  consistency: string;
  concurrency: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** requestsPerSecond over the ceiling's at the same concurrency. */
  ofCeiling: number;
}

export interface Target {
  name: string;
  goal: string;
  value: string;
  met: boolean;
}

export interface Results {
  date: string;
  machine: Machine;
  durationSeconds: number;
  dataset: { events: number; projects: number; bigProjectComments: number };
  http: HttpRow[];
  projectionLag: { mode: string; events: number; p50Ms: number; p99Ms: number }[];
  rebuild: { events: number; eventsPerSecond: number; replaySeconds: number; peakRssMb: number };
  webhooks: { mode: string; writes: string; webhooksPerComment: number; comments: number; deliveries: number; deliveriesPerSecond: number; p50Ms: number; p99Ms: number }[];
  skipped: string[];
  targets: Target[];
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (value < 10 ? value.toFixed(1) : n(value));
const pct = (value: number) => `${Math.round(value * 100)}%`;

export function markdown(results: Results): string {
  const { machine } = results;
  const lines = [
    `Measured ${results.date} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node} (${machine.platform}); ${results.durationSeconds} s per HTTP run, load from autocannon in its own process.`,
    '',
    '| mode | path | endpoint | consistency | conc. | req/s | p50 ms | p99 ms | of ceiling |',
    '|---|---|---|---|---:|---:|---:|---:|---:|',
    ...results.http.map((r) => `| ${r.mode} | ${r.path} | ${r.endpoint} | ${r.consistency || '–'} | ${r.concurrency} | ${n(r.requestsPerSecond)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${pct(r.ofCeiling)} |`),
    '',
    '| measure | result |',
    '|---|---|',
    ...results.projectionLag.map((l) => `| projection lag (${l.mode}), append → visible, ${n(l.events)} events | p50 ${ms(l.p50Ms)} ms, p99 ${ms(l.p99Ms)} ms |`),
    `| rebuild of ${n(results.rebuild.events)} events into fresh read models | ${n(results.rebuild.eventsPerSecond)} events/s (${results.rebuild.replaySeconds} s), peak RSS ${n(results.rebuild.peakRssMb)} MB |`,
    ...results.webhooks.map((w) => `| webhooks (${w.mode}), writes ${w.writes}: ${n(w.comments)} comments × ${w.webhooksPerComment} webhooks | ${n(w.deliveries)} deliveries, ${n(w.deliveriesPerSecond)}/s; write answer → receiver p50 ${ms(w.p50Ms)} ms, p99 ${ms(w.p99Ms)} ms |`),
    '',
    '| target | goal | measured | met |',
    '|---|---|---|:-:|',
    ...results.targets.map((t) => `| ${t.name} | ${t.goal} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
  ];
  if (results.skipped.length > 0) lines.push('', ...results.skipped.map((s) => `- not measured: ${s}`));
  return `${lines.join('\n')}\n`;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Requests/s of every HTTP scenario as a share of the ceiling, one bar per concurrency. */
export function chart(results: Results): string {
  const groups = new Map<string, HttpRow[]>();
  for (const row of results.http.filter((r) => r.path !== 'ceiling')) {
    const key = `${row.mode} · ${row.endpoint}${row.consistency ? ` (${row.consistency})` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const concurrencies = [...new Set(results.http.map((r) => r.concurrency))].sort((a, b) => a - b);
  const colors = ['#9ecae1', '#4292c6', '#08519c', '#08306b'];
  const bar = 12;
  const groupHeight = concurrencies.length * bar + 14;
  const left = 360;
  const width = 900;
  const plot = width - left - 90;
  const top = 56;
  const height = top + groups.size * groupHeight + 40;
  const x = (share: number) => left + Math.min(share, 1.2) / 1.2 * plot;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="12" y="20" font-size="15" font-weight="bold">Requests/s as a share of a bare fastify route (the ceiling), ${escape(results.date.slice(0, 10))}</text>`,
    `<text x="12" y="38" fill="#555">${escape(`${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}; labels: req/s · p99 ms`)}</text>`,
  ];
  for (const [i, share] of [0, 0.35, 0.6, 1].entries()) {
    out.push(`<line x1="${x(share)}" y1="${top - 6}" x2="${x(share)}" y2="${height - 30}" stroke="${i === 0 || i === 3 ? '#999' : '#d62728'}" stroke-dasharray="${i === 0 ? '' : '4 3'}"/>`);
    out.push(`<text x="${x(share)}" y="${height - 16}" text-anchor="middle" fill="#555">${pct(share)}</text>`);
  }
  [...groups.entries()].forEach(([label, rows], g) => {
    const y0 = top + g * groupHeight;
    out.push(`<text x="${left - 8}" y="${y0 + (concurrencies.length * bar) / 2 + 4}" text-anchor="end">${escape(label)}</text>`);
    for (const row of rows) {
      const k = concurrencies.indexOf(row.concurrency);
      const y = y0 + k * bar;
      out.push(`<rect x="${left}" y="${y}" width="${Math.max(1, x(row.ofCeiling) - left)}" height="${bar - 2}" fill="${colors[k % colors.length]}"/>`);
      out.push(`<text x="${x(row.ofCeiling) + 4}" y="${y + bar - 3}" font-size="10" fill="#333">c${row.concurrency}: ${n(row.requestsPerSecond)} · ${ms(row.p99Ms)}</text>`);
    }
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The value at quantile `q` of ascending `sorted` samples (nearest rank), or undefined when there are none. */
export function sampleQuantile(sorted: number[], q: number): number | undefined {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A quantile of a Prometheus histogram (cumulative buckets), interpolated inside its bucket. */
export function histogramQuantile(buckets: Array<[number, number]>, q: number): number {
  const total = buckets[buckets.length - 1]?.[1] ?? 0;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let previousBound = 0;
  let previousCount = 0;
  for (const [bound, count] of buckets) {
    if (count >= rank) {
      if (!Number.isFinite(bound)) return previousBound;
      return previousBound + ((bound - previousBound) * (rank - previousCount)) / Math.max(1, count - previousCount);
    }
    previousBound = bound;
    previousCount = count;
  }
  return previousBound;
}

/** The cumulative buckets of one histogram in a /metrics text. */
export function histogramBuckets(metricsText: string, name: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const pattern = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\d+)`, 'gm');
  for (const match of metricsText.matchAll(pattern)) out.push([match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]), Number(match[2])]);
  return out;
}
