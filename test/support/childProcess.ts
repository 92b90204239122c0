// A test's child process that stands for a fwbot process (crash tests, drills): `node --import tsx`, not the
// tsx CLI, so that a SIGKILL hits the process that does the work; ready once it prints its marker.
import { type ChildProcess, spawn } from 'node:child_process';

export async function startReadyChild(
  script: string,
  env: Record<string, string>,
  marker = 'ready',
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(marker)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return child;
}
