import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, createComment, createProject, executeCommentCommand, issueInboundToken } from '@feedback/command-api';
import { commentNumbersDecider } from '@feedback/domain';
import { commentStatuses, encodeEvent, streams, newId } from '@feedback/events';
import { loadConfig } from '@feedback/platform';
import { openEventStore } from '@feedback/runtime';

/**
 * Fills DATA_DIR's event log the way the service would have: every event is decided by the
 * domain's own deciders. 1,000 projects, one of them with BENCH_BIG_PROJECT comments, the others
 * with a hundred each, then status changes until the log holds BENCH_EVENTS events. Prints what
 * the benchmark needs (tokens, ids) as JSON.
 */
const targetEvents = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const bigProjectComments = Number(process.env.BENCH_BIG_PROJECT ?? 100_000);
const projectCount = Number(process.env.BENCH_PROJECTS ?? 1_000);
const perSmallProject = 100;

const config = loadConfig();
const eventStore = openEventStore(config);
const deps = { eventStore };
const context = { actor: { type: 'operator' as const, id: 'bench-seed' }, correlationId: newId() };

/** Runs `work(i)` for i < count with at most `width` in flight: appends issued together share a commit. */
async function pool(count: number, width: number, work: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, count) }, async () => {
    while (next < count) await work(next++);
  }));
}

const metadata = { browser: 'Firefox 140', os: 'Linux', viewport: '1440x900', consoleErrors: [] };
const newComment = (n: number) => ({ text: `Seeded comment ${n}`, url: `https://bench.example.com/page/${n % 50}`, title: null, priority: 'normal' as const, author: null, metadata, attachments: [] });

const { accountId, token } = await createAccount(deps, { ownerEmail: 'bench@example.com', ownerName: 'Bench' }, context);
const projects: Array<{ projectId: string; publicKey: string; domain: string; name: string }> = [];
await pool(projectCount, 64, async (i) => {
  projects[i] = (await createProject(deps, accountId, { domain: `https://site${i}.bench.example.com` }, context)).project;
});
const refOf = (p: (typeof projects)[number]) => ({ ...p, id: p.projectId, accountId, settings: {} });
const big = projects[0]!;

// The big project's numbers are assigned a thousand at a time on its commentNumbers stream
// (one append each), as a burst of creations would; each comment's own stream follows.
const bigIds: string[] = [];
let numbersState = commentNumbersDecider.initialState();
for (let start = 0; start < bigProjectComments; start += 1_000) {
  const chunk = Array.from({ length: Math.min(1_000, bigProjectComments - start) }, () => newId());
  const events = chunk.map((commentId) => {
    const { events: [assigned] } = commentNumbersDecider.decide({ type: 'AssignCommentNumber', projectId: big.projectId, commentId }, numbersState);
    numbersState = commentNumbersDecider.evolve(numbersState, assigned!);
    return assigned!;
  });
  const eventMetadata = { ...context, causationId: randomUUID() };
  await eventStore.appendToStream(streams.commentNumbers(big.projectId), events.map((e) => encodeEvent(e, eventMetadata)), { expectedRevision: start === 0 ? 'no_stream' : start - 1 });
  await pool(chunk.length, 256, async (i) => {
    const commentId = chunk[i]!;
    const input = newComment(start + i);
    await executeCommentCommand(deps, commentId, {
      type: 'CreateComment', commentId, commentNumber: start + i + 1, accountId, projectId: big.projectId, domain: big.domain,
      pageUrl: input.url, title: null, text: input.text, priority: 'normal', author: null, metadata, attachments: [],
    }, context);
  });
  bigIds.push(...chunk);
}

const smallIds: string[] = [];
await pool((projects.length - 1) * perSmallProject, 256, async (i) => {
  const project = projects[1 + (i % (projects.length - 1))]!;
  smallIds.push((await createComment(deps, refOf(project), newComment(i), context)).commentId);
});

// The rest of the log: status changes, spread over the small projects' comments.
let head = await eventStore.headPosition();
let round = 0;
while (head < targetEvents) {
  const count = Math.min(smallIds.length, targetEvents - head);
  const status = commentStatuses[1 + (round % (commentStatuses.length - 1))]!;
  await pool(count, 256, (i) => executeCommentCommand(deps, smallIds[i]!, { type: 'UpdateComment', scope: { accountId }, status }, context));
  head = await eventStore.headPosition();
  round++;
}

const inbound = await issueInboundToken(deps, accountId, big.projectId, ['status_update'], context);
const bigIdsFile = join(config.DATA_DIR, 'bench-big-project-comment-ids.txt');
writeFileSync(bigIdsFile, `${bigIds.join('\n')}\n`);
await eventStore.close();
process.stdout.write(`${JSON.stringify({ accountId, token, inboundToken: inbound.token, bigProject: { projectId: big.projectId, publicKey: big.publicKey, comments: bigIds.length }, projects: projects.length, bigIdsFile, events: head })}\n`);
