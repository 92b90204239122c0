// Child processes for benchmarks and drills: `node --import tsx <file>` (not the tsx CLI, so a SIGKILL
// reaches the process doing the work), optionally pinned to one CPU with taskset; waiting for the line a
// child prints when it is ready; and what /proc says about a process (CPU seconds, resident memory).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * Pinning needs taskset and at least two CPUs (one for the measured process, one for the rest). Counted
 * with cpus(), not availableParallelism(), which shrinks once this process is pinned.
 */
export function canPin(): boolean {
  return cpus().length > 1 && spawnSync('taskset', ['--version']).status === 0;
}

/** Moves a running process (this one by default) to one CPU; false when that is not possible here. */
export function pinProcess(cpu: number, pid: number = process.pid): boolean {
  if (!canPin()) return false;
  return spawnSync('taskset', ['-pc', String(cpu), String(pid)], { stdio: 'ignore' }).status === 0;
}

/** Lets a pinned process (and the children it starts from now on) use every CPU again. */
export function unpinProcess(pid: number = process.pid): void {
  if (!canPin()) return;
  spawnSync('taskset', ['-pc', `0-${cpus().length - 1}`, String(pid)], { stdio: 'ignore' });
}

/** Moves a running process and all its threads to one CPU (a no-op where pinning is not possible). */
export function moveToCpu(pid: number, cpu: number): void {
  if (!canPin()) return;
  spawnSync('taskset', ['-a', '-pc', String(cpu), String(pid)], { stdio: 'ignore' });
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Run on this CPU only (taskset), when the machine allows it. */
  cpu?: number;
  /** Extra options for node itself (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: readonly string[];
  /** Where the child's stdout goes besides the ready-line watcher; stderr is always passed through. */
  quiet?: boolean;
  /** False: `file` is JavaScript, run by plain node without the tsx loader (as production runs). */
  tsx?: boolean;
}

/** Starts a TypeScript entry point in its own Node process. */
export function spawnTsx(file: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const loader = options.tsx === false ? [] : ['--import', 'tsx'];
  const nodeArgs = [...(options.nodeArgs ?? []), ...loader, file, ...args];
  const env = { ...process.env, ...options.env };
  const pinned = options.cpu !== undefined && canPin();
  const child = pinned
    ? spawn('taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs], { env })
    : spawn(process.execPath, nodeArgs, { env });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (!options.quiet) process.stderr.write(chunk);
  });
  // Drain stdout so a chatty child never blocks on a full pipe.
  child.stdout?.on('data', () => undefined);
  return child;
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects if it exits or times out. */
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-8_192);
      const match = pattern.exec(seen);
      if (match) finish(() => resolve(match));
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(() => reject(new Error(`child exited (${code ?? signal}) before printing ${pattern}`)));
    const timer = setTimeout(
      () => finish(() => reject(new Error(`child printed no ${pattern} within ${timeoutMs} ms`))),
      timeoutMs,
    );
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      settle();
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Sends a signal and waits for the exit; SIGKILL after `graceMs` if the child is still there. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * The pid doing the work: under taskset the child is taskset itself only until it execs node, which
 * keeps the pid, so the spawned pid is right either way.
 */
export function pidOf(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error('the child process has no pid (it failed to start)');
  return child.pid;
}

/** CPU seconds (user + system) a process has used; NaN where /proc is not readable. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory now and at its peak (VmRSS, VmHWM), in bytes; NaN where /proc is not readable. */
export function residentMemory(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rss: kib('VmRSS'), peak: kib('VmHWM') };
  } catch {
    return { rss: Number.NaN, peak: Number.NaN };
  }
}
