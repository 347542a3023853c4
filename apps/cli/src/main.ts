import { parseArgs } from 'node:util';
import { DomainError } from '@feedback/domain';
import { newId } from '@feedback/events';
import { ConfigError, createLogger, loadConfig } from '@feedback/platform';
import { createProjector, projections } from '@feedback/projector';
import { openBaseReadStore, openEventStore, openReadStore } from '@feedback/runtime';
import { cliCommands, UsageError } from './commands.js';
import { rebuildProjections } from './rebuild.js';

// The operator CLI: `npm run cli -- <command> [flags]`. One JSON object on stdout; errors on stderr.

function usage(): string {
  return ['usage: npm run cli -- <command> [flags]', '', ...Object.values(cliCommands).map((c) => `  ${c.usage}`), '  projections rebuild'].join('\n');
}

async function rebuild(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'cli');
  const eventStore = openEventStore(config, 'replay');
  const base = await openBaseReadStore(config);
  try {
    process.stdout.write(`${JSON.stringify(await rebuildProjections(eventStore, base, logger))}\n`);
    return 0;
  } finally {
    await base.close();
    await eventStore.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const positional = argv.filter((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1]!.startsWith('--')));
  const name = positional.slice(0, 2).join(' ');
  if (name === 'projections rebuild') return rebuild();
  const command = cliCommands[name];
  if (!command) {
    process.stderr.write(`${name ? `unknown command '${name}'\n` : ''}${usage()}\n`);
    return 2;
  }
  const optionNames = [...command.usage.matchAll(/--([a-z-]+)/g)].map((m) => m[1]!);
  let flags: Record<string, string | undefined>;
  try {
    const parsed = parseArgs({ args: argv.slice(2), options: Object.fromEntries(optionNames.map((o) => [o, { type: 'string' as const }])), strict: true, allowPositionals: false });
    flags = parsed.values as Record<string, string | undefined>;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: npm run cli -- ${command.usage}\n`);
    return 2;
  }

  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'cli');
  const eventStore = openEventStore(config);
  const readStore = await openReadStore(config);
  try {
    const context = { actor: { type: 'operator' as const, id: process.env.USER ?? 'operator' }, correlationId: newId() };
    // The read models must know what the operator just did before the next command (or the
    // server) relies on them, whether or not a server is running: catch them up here.
    const projector = createProjector({ eventStore, readStore, projections, logger });
    await projector.catchUp();
    const output = await command.run({ eventStore, readStore, config, context }, flags);
    await projector.catchUp();
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `error: ${(error as Error).message}`}\n`);
  process.exitCode = 1;
}
