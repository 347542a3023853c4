import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, waitForPort } from './ports.js';

export interface RunningMongo {
  url: string;
  stop(): Promise<void>;
}

const cache = process.env.FEEDBACK_TEST_SERVERS ?? join(homedir(), '.cache', 'feedback-test-servers');
export const ferretdbBinary = process.env.FERRETDB_BIN ?? join(cache, 'bin', 'ferretdb');

/**
 * A MongoDB wire-protocol server for a test: MONGODB_URL when set, else a FerretDB started
 * here on loopback (SQLite backend, throwaway directory). Null with the reason when neither.
 */
export async function startMongo(): Promise<RunningMongo | { skip: string }> {
  if (process.env.MONGODB_URL) return { url: process.env.MONGODB_URL, stop: async () => {} };
  if (!existsSync(ferretdbBinary)) return { skip: `no FerretDB binary at ${ferretdbBinary} (run test/servers/install.sh) and no MONGODB_URL` };
  const dir = mkdtempSync(join(tmpdir(), 'ferretdb-'));
  const [port, debugPort] = (await freePorts(2)) as [number, number];
  const child: ChildProcess = spawn(
    ferretdbBinary,
    [`--listen-addr=127.0.0.1:${port}`, '--handler=sqlite', `--sqlite-url=file:${dir}/`, `--state-dir=${dir}`, '--telemetry=disable', '--log-level=error', `--debug-addr=127.0.0.1:${debugPort}`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await waitForPort(port, 20_000, 'FerretDB to listen');
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
