// Every real packet-tracer answer kept in test/fixtures/packet-tracer/ (ASA 8.2 to 9.x, FTD 7; Cisco's
// documentation, community pages and public notes) reads into the verdict written in its header: the
// action, what decided and at which phase, the access-list line, the NAT, the drop reason, the interfaces.
// Each is read again as SCC may return it (CRLF line ends), and with a pager's prompt and a debug message
// in the middle, which change nothing.
import { describe, expect, it } from 'vitest';
import { parsePacketTracer } from '../../src/render/packetTracer.js';
import { loadFixtures, summary } from './support/packetTracerFixtures.js';

const fixtures = loadFixtures();

/** After the first phase's block: a pager prompt erased by spaces, and a syslog message from the session. */
function interrupted(output: string): string {
  return output.replace(
    /\n\nPhase: 2\n|\nPhase: 2\n/,
    (m) => `\n<--- More --->\r              \r${m.slice(1)}%ASA-7-609001: Built local-host inside:10.1.1.1\n`,
  );
}

describe('real packet-tracer answers', () => {
  it('keeps at least 15 of them, of ASA 8.x and 9.x and FTD, each with its source', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
    const devices = fixtures.map((f) => f.device).join('\n');
    expect(devices).toMatch(/ASA 8\.2/);
    expect(devices).toMatch(/ASA 9\.5/);
    expect(devices).toMatch(/FTD 7/);
    for (const f of fixtures) expect(f.source, f.name).toMatch(/^(https:\/\/|public GitHub)/);
  });

  for (const fixture of fixtures) {
    it(`reads ${fixture.name}`, () => {
      expect(summary(parsePacketTracer(fixture.output))).toEqual(fixture.expected);
    });
    it(`reads ${fixture.name} with CRLF line ends, a pager prompt and a debug line`, () => {
      const crlf = interrupted(fixture.output).replace(/\r?\n/g, '\r\n');
      expect(summary(parsePacketTracer(crlf))).toEqual(fixture.expected);
    });
  }
});
