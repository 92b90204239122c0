import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/catalogue/operation.js';
import { decodePageState } from '../../src/render/paging.js';
import { numberedButtons, renderText } from '../../src/render/text.js';
import { catalogue, useSimulator } from './harness.js';

const h = useSimulator();
const DOMAIN = 'e276abec-e0f2-11e3-8169-6d9ed49b625f';

/** Runs a synchronous gateway command: the simulator holds it until simulated time passes. */
async function runParked(text: string, advanceMs: number): Promise<Outcome> {
  const pending = h.run(text);
  await h.sim.untilParked(1);
  h.sim.clock.advance(advanceMs);
  return pending;
}

describe('devices', () => {
  it('lists the inventory with UUIDs', async () => {
    h.golden('devices', await h.run('devices'));
  });

  it('pages with buttons that carry the command, not memory', async () => {
    const first = await h.run('devices deviceType:ASA OR deviceType:CDFMC_MANAGED_FTD', { raw: {} });
    expect(renderText(first.view)).toContain('1–6 of 6');
    // 25 rows a page: the seed has 7 devices, so ask for a page that starts further on to see Previous.
    const later = await h.run('devices --offset 5');
    h.golden('devices.page-2', later);
    const previous = numberedButtons(later.view).find((b) => b.label === 'Previous page');
    const state = decodePageState(previous?.action?.value ?? '');
    expect(state).toEqual({ operationId: 'devices', raw: { offset: '0' }, offset: 0 });
    const op = catalogue.get(state.operationId);
    const again = await op?.execute(h.context(), state.raw);
    expect(renderText(again?.view ?? later.view)).toContain('1–7 of 7');
  });
});

describe('connectors', () => {
  it('names the devices each connector reaches, and filters by SCC fields', async () => {
    const text = renderText((await h.run('connectors')).view);
    const row = (name: string) => text.split('\n').find((line) => line.startsWith(`${name} `));
    expect(row('sdc-hq')).toMatch(/ active .* asa-hq-01$/);
    expect(row('sdc-dc')).toMatch(/ asa-dc-03$/);
    // The threat-defense devices are reached through the cloud connector: behind no SDC.
    expect(text).not.toContain('ftd-edge-01');
    expect(renderText((await h.run('connectors status:INACTIVE')).view)).toContain('no connectors.');
  });
});

describe('reports', () => {
  it('lists reports with a download button for each finished one', async () => {
    const outcome = await h.run('reports');
    h.golden('reports', outcome);
    const downloads = numberedButtons(outcome.view).filter((b) => b.url);
    expect(downloads.map((b) => b.label)).toEqual([
      'Download intrusion-events-daily',
      'Download vpn-logins-week',
      'Download blocked-connections-24h',
    ]);
  });

  it('gives download links that work', async () => {
    const outcome = await h.run('reports intrusion');
    const url = numberedButtons(outcome.view).find((b) => b.url)?.url ?? '';
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect((await response.text()).split('\n')[0]).toBe(
      'timestamp,deviceName,action,sourceIp,destinationIp,destinationPort,protocol',
    );
  });
});

describe('gateway', () => {
  it('lists the supported request patterns', async () => {
    h.golden('gateway.commands', await h.run('gateway commands'));
  });

  it('shows the domain UUID of an FMC from its device record, ready for a link', async () => {
    const outcome = await h.run('gateway domain cdfmc-acme');
    h.golden('gateway.domain', outcome);
    expect(renderText(outcome.view)).toContain(`/api/fmc_config/v1/domain/${DOMAIN}/object/networks`);
    expect(h.sim.requestLog.list({ operationId: 'executeDeviceCommand' })).toHaveLength(0);
    await expect(h.run('gateway domain asa-hq-01')).rejects.toThrow(/Firewall Management Center/);
  });

  it('waits for the device and shows its answer as pretty JSON', async () => {
    const outcome = await runParked(
      'gateway run cdfmc-acme GET /api/fmc_platform/v1/info/serverversion',
      5_000,
    );
    h.golden('gateway.run', outcome);
    expect(outcome.track).toEqual([]);
    expect(outcome.view.visibility).toBe('ephemeral');
  });

  it('announces a request that may change the FMC, with its JSON body', async () => {
    const body = '{"name": "lab net", "value": "10.9.0.0/16", "type": "Network"}';
    const outcome = await runParked(
      `gateway run cdfmc POST /api/fmc_config/v1/domain/${DOMAIN}/object/networks ${body}`,
      5_000,
    );
    h.golden('gateway.run.post', outcome);
    expect(outcome.view.visibility).toBe('in_channel');
  });

  it('follows a request the device did not answer within 70 seconds', async () => {
    const outcome = await runParked(
      `gateway run cdfmc GET /api/fmc_config/v1/domain/${DOMAIN}/deployment/deployabledevices`,
      70_000,
    );
    h.golden('gateway.run.timeout', outcome);
    expect(outcome.track).toEqual([
      {
        kind: 'gateway',
        requestId: expect.any(String),
        deviceUid: h.sim.deviceUid('cdfmc-acme'),
        label: `GET /api/fmc_config/v1/domain/${DOMAIN}/deployment/deployabledevices on cdfmc-acme`,
      },
    ]);
  });

  it('sends --async at once and fetches the answer later by request ID', async () => {
    const sent = await h.run('gateway run cdfmc GET /api/fmc_platform/v1/info/serverversion --async');
    const [track] = sent.track;
    if (track?.kind !== 'gateway') throw new Error('nothing to follow');
    h.sim.clock.advance(5_000);
    const outcome = await h.run(`gateway result ${track.requestId}`);
    h.golden('gateway.result', outcome);
    expect(renderText(outcome.view)).toContain('"serverVersion"');
  });

  it('refuses a JSON body that does not parse, before sending it', async () => {
    await expect(h.run('gateway run cdfmc POST /api/x {"name": }')).rejects.toThrow(
      /^`json-body` is not valid JSON/,
    );
  });

  it('refuses a device that is not an FMC', async () => {
    await expect(h.run('gateway run asa-hq-01 GET /api/x')).rejects.toThrow(
      'asa-hq-01 is an ASA; the gateway sends requests to a Firewall Management Center.',
    );
  });
});

describe('help', () => {
  it('shows the overview grouped by area', async () => {
    h.golden('help', await h.run('help'));
  });

  it('shows an area and one command', async () => {
    h.golden('help.tenants', await h.run('help tenants'));
    h.golden('help.tenants.users.remove', await h.run('help tenants users remove'));
  });
});
