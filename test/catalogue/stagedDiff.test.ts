import { describe, expect, it } from 'vitest';
import { stagedItems } from '../../src/catalogue/stagedDiff.js';
import { stagedNote } from '../../src/render/changes.js';

const DEVICE = `: Saved
:
ASA Version 9.18(3)
!
hostname asa-hq-01
!
interface GigabitEthernet1/1
 nameif outside
 security-level 0
 ip address 203.0.113.2 255.255.255.0
!
interface Vlan20
 nameif iot
 security-level 40
 ip address 10.20.0.1 255.255.255.0
!
mtu outside 1500
mtu iot 1500
route outside 0.0.0.0 0.0.0.0 203.0.113.1 1
Cryptochecksum:c4d541cbfe29507d53427822d19a9d0d
: end`;

describe('what is staged on an ASA, from its two copies', () => {
  it('finds nothing when they agree, whatever the checksum and comment lines say', () => {
    const again = DEVICE.replace('c4d541cbfe', '20368908121').replace(': Saved', ': Saved again');
    expect(stagedItems(again, DEVICE)).toEqual([]);
  });

  it('counts a deleted interface once, with its lines elsewhere (mtu) as part of it', () => {
    const cloud = DEVICE.replace(/interface Vlan20\n( .*\n)+!\n/, '').replace('mtu iot 1500\n', '');
    expect(stagedItems(cloud, DEVICE)).toEqual([{ what: 'interface Vlan20', change: 'removed' }]);
  });

  it('says new, changed and removed, in the order of SCC’s copy and then the removed ones', () => {
    const cloud = DEVICE.replace('mtu outside 1500', 'mtu outside 9000')
      .replace(/interface Vlan20\n( .*\n)+!\n/, 'interface Vlan30\n nameif guest\n security-level 20\n!\n')
      .replace('mtu iot 1500', 'mtu guest 1500');
    expect(stagedItems(cloud, DEVICE)).toEqual([
      { what: 'interface GigabitEthernet1/1', change: 'changed' },
      { what: 'interface Vlan30', change: 'new' },
      { what: 'interface Vlan20', change: 'removed' },
    ]);
  });

  it('keys a lone line by what it sets, so a new value is one change', () => {
    const cloud = DEVICE.replace(
      'route outside 0.0.0.0 0.0.0.0 203.0.113.1 1',
      'route outside 0.0.0.0 0.0.0.0 203.0.113.9 1',
    );
    // A route names the interface it leaves by, but it is not the interface's own setting.
    expect(stagedItems(cloud, DEVICE)).toEqual([{ what: 'route outside', change: 'changed' }]);
    const logging = `${DEVICE}\nlogging enable`;
    expect(stagedItems(logging, DEVICE)).toEqual([{ what: 'logging enable', change: 'new' }]);
  });
});

describe('what an interface change says is staged on its device', () => {
  it('names up to five changes, counts the rest, and says when SCC could not say', () => {
    const seven = Array.from({ length: 7 }, (_, i) => ({
      what: `interface Vlan${i}`,
      change: 'new' as const,
    }));
    expect(stagedNote('asa-hq-01', seven)).toContain(
      'A deploy of asa-hq-01 would now push *7 staged changes*, whoever made them: interface Vlan0 (new), interface Vlan1 (new), interface Vlan2 (new), interface Vlan3 (new), interface Vlan4 (new), and 2 more.',
    );
    expect(stagedNote('asa-hq-01', [])).toContain('now matches the device again');
    // No promise of a count in a thread: the CLI prints the same note and has no thread.
    expect(stagedNote('asa-hq-01', undefined)).toContain(
      'SCC did not say what else is staged on it. `/fw changes asa-hq-01` shows the commands a deploy would run',
    );
  });
});
