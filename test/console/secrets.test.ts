// No secret reaches the logs: with logging at its most verbose, the console runs the flows that handle
// tokens — an API token generated and revealed, a tenant's API token typed into a form, requests made
// with the SCC token — and the CLI runs with a good and a refused token; the captured JSON log stream
// is then searched for every one of those values. Request ids are checked on the way.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/app/logger.js';
import { runCli } from '../../src/cli/cli.js';
import { contextualDestination } from '../../src/observability/logContext.js';
import { type ConsoleRig, startConsoleRig } from './support.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('logs', () => {
  const capture = new Capture();
  const log = createLogger('trace', contextualDestination(capture));
  let rig: ConsoleRig;
  beforeAll(async () => {
    rig = await startConsoleRig({ log });
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('carry request ids and no token, whatever the flow', async () => {
    const secrets: string[] = [rig.sim.tokens.superAdmin];

    // A generated API token: asked by alice, approved by bob, revealed once to alice.
    const before = rig.terminal.output.length;
    await rig.type('tenants token contoso-eu dbe1f18e-b536-4260-ba7b-ed8d9dc7bac5');
    await rig.terminal.waitFor(/\[1\] Approve/, before);
    await rig.type('/as bob');
    const approving = rig.terminal.output.length;
    rig.terminal.answer('y');
    await rig.type('1');
    await rig.terminal.waitFor(/\[1\] Reveal token/, approving);
    await rig.type('/as alice');
    const revealed = await rig.type('1');
    if (process.env.SHOW_OUTPUT) console.log(rig.terminal.output.join('\n'));
    const generated = /eyJ[\w-]+\.[\w-]+\.[\w-]+/.exec(revealed)?.[0];
    expect(generated).toBeDefined();
    secrets.push(generated ?? '');

    // A tenant's API token typed into the form's secret field.
    const typed = rig.sim.mintTenantToken(rig.sim.tenantUid('contoso-eu'));
    secrets.push(typed);
    rig.terminal.answer(typed);
    await rig.type('tenants add');
    expect(rig.terminal.output.join('\n')).not.toContain(typed);

    // The CLI with the SCC token, and with a token SCC refuses.
    const refused = 'refused-token-0123456789';
    secrets.push(refused);
    const io = { stdout: () => {}, stderr: () => {} };
    const env = { SCC_BASE_URL: rig.sim.url, SCC_API_TOKEN: rig.sim.tokens.superAdmin, LOG_LEVEL: 'trace' };
    expect(await runCli(['tenants', 'list'], { env, io, log })).toBe(0);
    expect(await runCli(['tenants', 'list'], { env: { ...env, SCC_API_TOKEN: refused }, io, log })).toBe(3);

    const lines = capture.text.trim().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    if (process.env.SHOW_LOG) console.log(capture.text);
    for (const secret of secrets) expect(capture.text).not.toContain(secret);
    expect(capture.text).not.toMatch(/Bearer\s+\S/i);

    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // Every line written while a command ran carries its id: the surface's own, and the SCC client's.
    const requests = records.filter((r) => r.surface === 'console' || r.surface === 'cli');
    expect(requests.length).toBeGreaterThan(3);
    for (const record of requests) expect(record.requestId).toMatch(/^[0-9a-f]{12}$/);
    const sccCalls = records.filter((r) => r.component === 'scc');
    expect(sccCalls.length).toBeGreaterThan(3);
    for (const record of sccCalls) expect(record.requestId).toMatch(/^[0-9a-f]{12}$/);
  });
});
