// /fw trace and /fw show against the simulator: packet-tracer's verdict (allowed, dropped, and dropped by a
// line added above the one that allowed it through the simulator's SCC UI route), the input interface
// inferred from the source's connected subnet or asked for, and everything refused before a script is
// sent: a device that is not an ASA, an offline one, an interface it does not have. What reaches SCC's
// command line is read from the simulator's own record of received scripts.
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/catalogue/operation.js';
import type { Button } from '../../src/model/view.js';
import { renderText } from '../../src/render/text.js';
import { receivedCliScripts } from '../../src/simulator/api/cli.js';
import { call } from '../simulator/support.js';
import { driveClock } from '../support/driveClock.js';
import { catalogue, useSimulator } from './harness.js';

const ALLOW = 'trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in outside';

describe('trace and show', () => {
  const h = useSimulator();
  const run = (text: string) => driveClock(h.sim.clock, h.run(text), { pauseMs: 10 });
  const scripts = () => receivedCliScripts(h.sim.state).map((s) => s.script);
  const buttons = (outcome: Outcome): Button[] =>
    outcome.view.blocks.flatMap((b) => (b.kind === 'actions' ? b.buttons : []));
  const admin = (method: string, path: string, body: unknown) => call(h.sim.url, method, path, { body });

  it('counts trace and show as reads (shared, run again), and no other operation that calls a POST', () => {
    expect(catalogue.get('trace')?.readsOnly).toBe(true);
    expect(catalogue.get('show')?.readsOnly).toBe(true);
    expect(catalogue.get('trace')?.entries.has('share')).toBe(true);
    // SCC's calculations are harmless to repeat too, but these stay as they were (no share button).
    expect(catalogue.get('changes')?.readsOnly).toBe(false);
    expect(catalogue.get('msp.vpn.versions')?.readsOnly).toBe(false);
  });

  it('answers an allowed flow with the line that allowed it, the NAT and both interfaces', async () => {
    const outcome = await run(ALLOW);
    expect(scripts()).toEqual(['packet-tracer input outside tcp 198.51.100.7 49152 203.0.113.10 443']);
    const text = renderText(outcome.view);
    expect(text).toContain('ALLOW on asa-hq-01');
    expect(text).toContain(
      'Allowed by line 128 (#2 of outside_access_in), `access-list outside_access_in extended permit tcp any object WEB-01 eq https` (phase 3, ACCESS-LIST)',
    );
    expect(text).toMatch(/NAT: +Untranslate 203\.0\.113\.10\/443 to 172\.16\.0\.10\/443/);
    expect(text).toMatch(/Output interface: +dmz/);
    const show = buttons(outcome).find((b) => b.label === 'Show rule');
    expect(show?.action?.value).toMatch(/^rules show asa-hq-01 \d+$/);
    expect(buttons(outcome).map((b) => b.label)).toContain('Share in channel');
    h.golden('trace', outcome);
  });

  it('links the Show rule button to the rule that matched', async () => {
    const outcome = await run(ALLOW);
    const value = buttons(outcome).find((b) => b.label === 'Show rule')?.action?.value ?? '';
    const rule = renderText((await run(value)).view);
    expect(rule).toContain('access-list outside_access_in extended permit tcp any object WEB-01 eq https');
  });

  it('answers a dropped flow with the implicit deny and the drop reason', async () => {
    const outcome = await run('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 22 --in outside');
    const text = renderText(outcome.view);
    expect(text).toContain('DROP on asa-hq-01');
    expect(text).toContain('Dropped by the implicit deny at the end (phase 3, ACCESS-LIST)');
    expect(text).toContain('(acl-drop) Flow is denied by configured rule');
    expect(buttons(outcome).map((b) => b.label)).not.toContain('Show rule');
  });

  it('names the new line once a deny is added above the permit (a change in SCC’s UI)', async () => {
    const before = renderText((await run(ALLOW)).view);
    expect(before).toContain('ALLOW on asa-hq-01');
    const added = await admin('POST', '/_sim/devices/asa-hq-01/access-list', {
      text: 'access-list outside_access_in line 1 extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    });
    expect(added.status).toBe(200);
    const after = await run(ALLOW);
    const text = renderText(after.view);
    expect(text).toContain('DROP on asa-hq-01');
    expect(text).toContain(
      'Dropped by line 127 (#1 of outside_access_in), `access-list outside_access_in extended deny tcp host 198.51.100.7 object WEB-01 eq https`',
    );
    const value = buttons(after).find((b) => b.label === 'Show rule')?.action?.value ?? '';
    expect(renderText((await run(value)).view)).toContain(
      'extended deny tcp host 198.51.100.7 object WEB-01 eq https',
    );
  });

  it('infers the input interface from the source’s connected subnet', async () => {
    const outcome = await run('trace asa-hq-01 tcp 10.1.100.25 8.8.8.8 https');
    expect(scripts()).toEqual(['packet-tracer input users tcp 10.1.100.25 49152 8.8.8.8 443']);
    expect(renderText(outcome.view)).toMatch(/Input interface: +users \(its subnet holds the source\)/);
  });

  it('sends a typed source port, and an ICMP type as a number', async () => {
    await run('trace asa-hq-01 udp 10.1.100.25 51000 8.8.8.8 domain');
    await run('trace asa-hq-01 icmp 10.1.100.25 8.8.8.8 echo');
    expect(scripts()).toEqual([
      'packet-tracer input users udp 10.1.100.25 51000 8.8.8.8 53',
      'packet-tracer input users icmp 10.1.100.25 8 0 8.8.8.8',
    ]);
  });

  it('asks for the input interface when no connected subnet holds the source, one button per nameif', async () => {
    const outcome = await run('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443');
    expect(scripts()).toEqual([]);
    expect(outcome.view.summary).toBe('asa-hq-01: which interface does 198.51.100.7 come in on?');
    const choices = buttons(outcome).filter((b) => b.action?.id === 'fw.command');
    expect(choices.map((b) => b.label)).toContain('outside');
    for (const button of choices)
      expect(button.action?.value).toBe(
        `trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in ${button.label}`,
      );
    // A click runs the command line it carries: the trace, from outside.
    const outside = choices.find((b) => b.label === 'outside')?.action?.value ?? '';
    expect(catalogue.parse(outside).op.entries.has('button')).toBe(true);
    expect(renderText((await run(outside)).view)).toContain('ALLOW on asa-hq-01');
  });

  it('keeps a source port in the question’s buttons', async () => {
    const outcome = await run('trace asa-hq-01 tcp 198.51.100.7 40000 203.0.113.10 443');
    const value = buttons(outcome).find((b) => b.label === 'outside')?.action?.value;
    expect(value).toBe('trace asa-hq-01 tcp 198.51.100.7 40000 203.0.113.10 443 --in outside');
  });

  it('says a device that is not an ASA, before anything is sent', async () => {
    await expect(run('trace ftd-edge-01 tcp 10.1.100.25 8.8.8.8 443')).rejects.toThrow(
      /ftd-edge-01 is .*packet-tracer and show commands run on ASAs/,
    );
    await expect(run('show ftd-edge-01 version')).rejects.toThrow(/run on ASAs/);
    expect(h.sim.requestLog.list({ operationId: 'executeCliCommand' })).toEqual([]);
  });

  it('says an offline ASA, before anything is sent', async () => {
    const offline = await admin('POST', '/_sim/devices/asa-hq-01/connectivity', {
      connectivityState: 'UNREACHABLE',
    });
    expect(offline.status).toBe(200);
    await expect(run(ALLOW)).rejects.toThrow('asa-hq-01 is UNREACHABLE: fwbot sends nothing to it.');
    await expect(run('show asa-hq-01 version')).rejects.toThrow('asa-hq-01 is UNREACHABLE');
    expect(scripts()).toEqual([]);
  });

  it('refuses an interface the ASA does not have, naming the ones it has', async () => {
    await expect(run('trace asa-hq-01 tcp 198.51.100.7 203.0.113.10 443 --in nowhere')).rejects.toThrow(
      /in: asa-hq-01 has no interface named “nowhere”\. Its interfaces: dmz, guest/,
    );
    await expect(run('show asa-hq-01 interface Vlan999')).rejects.toThrow(
      /target: asa-hq-01 has no interface/,
    );
    expect(scripts()).toEqual([]);
  });

  it('says SCC’s error when the device answers with one', async () => {
    // The ASA drops off while the script waits its turn: SCC's result carries the error.
    const work = h.run('show asa-hq-01 version');
    for (
      let i = 0;
      i < 500 && h.sim.requestLog.list({ operationId: 'executeCliCommand' }).length === 0;
      i += 1
    )
      await new Promise((resolve) => setTimeout(resolve, 10));
    await admin('POST', '/_sim/devices/asa-hq-01/connectivity', { connectivityState: 'UNREACHABLE' });
    await expect(driveClock(h.sim.clock, work, { pauseMs: 10 })).rejects.toThrow(
      'asa-hq-01 could not run `show version`: Error: Connection timed out',
    );
  });

  it('says the transaction’s error message when SCC’s transaction fails', async () => {
    const ctx = h.context();
    const failing = {
      ...ctx,
      scc: {
        ...ctx.scc,
        transactions: {
          ...ctx.scc.transactions,
          follow: async () => ({ cdoTransactionStatus: 'ERROR' as const, errorMessage: 'Device is busy' }),
        },
      },
    };
    const { op, raw } = catalogue.parse('show asa-hq-01 version');
    await expect(driveClock(h.sim.clock, op.execute(failing, raw), { pauseMs: 10 })).rejects.toThrow(
      'SCC could not run `show version` on asa-hq-01 (ERROR: Device is busy).',
    );
  });

  it('reads a long answer whole for the verdict, and shows only its beginning', async () => {
    const ctx = h.context();
    const cliResults: typeof ctx.scc.lookups.cliResults = async (query, options) => {
      const page = await ctx.scc.lookups.cliResults(query, options);
      // A device that prints a long banner before its answer: the verdict is at the end.
      const items = (page.items ?? []).map((item) => ({
        ...item,
        result: `${'banner\n'.repeat(4_000)}${item.result}`,
      }));
      return { ...page, items };
    };
    const padded = { ...ctx, scc: { ...ctx.scc, lookups: { ...ctx.scc.lookups, cliResults } } };
    const { op, raw } = catalogue.parse(ALLOW);
    const outcome = await driveClock(h.sim.clock, op.execute(padded, raw), { pauseMs: 10 });
    expect(outcome.view.summary).toMatch(/^asa-hq-01: ALLOW/);
    const output = outcome.view.blocks.find((b) => b.kind === 'code');
    const text = output?.kind === 'code' ? output.text : '';
    expect(text.length).toBeLessThan(20_100);
    expect(text).toMatch(/\n… \(cut here: the answer is 2\d,\d{3} characters long\)$/);
    // Cut after a whole line, never within one.
    const shown = text.slice(0, text.lastIndexOf('\n… (cut here'));
    expect(shown.split('\n').every((line) => line === 'banner')).toBe(true);
  });

  it('shows a show command’s output under the command', async () => {
    const outcome = await run('show asa-hq-01 route 8.8.8.8');
    expect(scripts()).toEqual(['show route 8.8.8.8']);
    expect(outcome.view.blocks[0]).toEqual({ kind: 'header', text: 'show route 8.8.8.8 on asa-hq-01' });
    const output = outcome.view.blocks.find((b) => b.kind === 'code');
    expect(output?.kind === 'code' ? output.text : '').toContain('203.0.113.1, via outside');
    h.golden('show', outcome);
  });

  it('sends each show command as its template, interfaces in the device’s own spelling', async () => {
    for (const text of [
      'show asa-hq-01 conn 10.1.100.25',
      'show asa-hq-01 xlate 172.16.0.10',
      'show asa-hq-01 interface OUTSIDE',
      'show asa-hq-01 interface gigabitethernet1/1',
      'show asa-hq-01 failover',
      'show asa-hq-01 version',
    ])
      await run(text).catch(() => undefined);
    expect(scripts()).toEqual([
      'show conn address 10.1.100.25',
      'show xlate local 172.16.0.10',
      'show interface outside',
      'show interface GigabitEthernet1/1',
      'show failover',
      'show version',
    ]);
    await expect(run('show asa-hq-01 route 2001:DB8::1')).rejects.toThrow(/`target` must be an IPv4 address/);
  });
});
