import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { runInProcess } from './run-in-process.js';
import { clientFor, cliEnv, requestRecorder, type Received, type TestSandbox } from './sandbox.js';

/**
 * One sandbox for a file of command tests (the demo store unless told), with the API beside the CLI: `run` runs a
 * `store` command in-process and answers, besides its exit code and streams, the GET requests the sandbox received
 * while it ran (request economy is part of what a command promises). Fields are filled in by beforeAll.
 */
export interface CliSandbox {
  sandbox: RunningSandbox;
  api: TestSandbox;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string; requests: Received[] }>;
}

export function useCliSandbox(name: string, opts: SandboxOptions = {}, extraEnv: () => NodeJS.ProcessEnv = () => ({})): CliSandbox {
  const recorder = requestRecorder();
  const holder = {} as CliSandbox;
  beforeAll(async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const sandbox = await startSandbox({ seed: 'demo', rate: 'off', host: '127.0.0.1', port: 0, ...opts, onRequest: recorder.onRequest });
    const env = { ...cliEnv(sandbox, name), ...extraEnv() };
    Object.assign(holder, {
      sandbox,
      api: clientFor(sandbox),
      env,
      async run(...args: string[]) {
        recorder.take();
        const result = await runInProcess(args, { env });
        return { ...result, requests: recorder.take().filter((r) => r.method === 'GET') };
      },
    });
  });
  afterAll(() => holder.sandbox?.close());
  return holder;
}
