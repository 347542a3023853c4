import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot, terminate } from '../test/support/processes.js';
import type { LoadJob, LoadResult } from './load.js';

// The benchmark's child processes: every server and the load generator run on their own.
const children = new Set<ChildProcess>();
export function startNode(entry: string, env: Record<string, string>, args: string[] = []): ChildProcess & { firstLine: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { cwd: repoRoot, env: { ...process.env, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const end = stdout.indexOf('\n');
      if (end !== -1) resolve(stdout.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before answering:\n${stderr.slice(-2000)}`)));
  });
  child.stderr!.on('data', (d) => (stderr += d));
  firstLine.catch(() => undefined);
  return Object.assign(child, { firstLine, output: () => stdout + stderr });
}

export async function runNode<T>(entry: string, env: Record<string, string>, args: string[] = []): Promise<T> {
  return JSON.parse(await startNode(entry, env, args).firstLine) as T;
}

export const stop = (child: ChildProcess) => terminate(child, 10_000);

const stopAll = () => {
  for (const child of children) child.kill('SIGKILL');
};
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

export async function load(job: LoadJob): Promise<LoadResult> {
  return runNode<LoadResult>('bench/load.ts', {}, [JSON.stringify(job)]);
}

