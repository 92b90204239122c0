// What a set of figures was measured on: CPU model, cores, memory, Node, redis-server, the date, and the
// load average before and after (the machine is shared; a busy neighbour shows up there).
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  redis: string;
  date: string;
  load: string;
}

export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export function describeMachine(): Machine {
  const redis = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    redis: /v=(\S+)/.exec(redis.stdout ?? '')?.[1] ?? 'not found',
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    load: loadAverage(),
  };
}

export function machineLines(machine: Machine, loadAfter?: string): string[] {
  return [
    `- CPU: ${machine.cpu}, ${machine.cores} cores; memory ${machine.memoryGiB} GiB`,
    `- Node ${machine.node}, redis-server ${machine.redis}`,
    `- Date: ${machine.date}`,
    `- Load average (1, 5, 15 min) at start: ${machine.load}${loadAfter ? `; at end: ${loadAfter}` : ''}`,
  ];
}
