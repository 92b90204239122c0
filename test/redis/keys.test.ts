// The key space keeps its names: every family's name as the releases before src/redis/keys.ts wrote it
// (read from that code, family by family, when the keys moved here). A name that changes here orphans what
// a running deployment keeps in Redis; test/redis/upgrade.test.ts reads state written under these names.
import { describe, expect, it } from 'vitest';
import { normalisePrefix, RedisKeys, slotPrefix } from '../../src/redis/keys.js';

type Family = [family: string, build: (keys: RedisKeys) => string, name: string];

const FAMILIES: Family[] = [
  ['approval', (k) => k.approval('ap-1'), 'fwbot:approval:ap-1'],
  ['approvals pending', (k) => k.approvalsPending(), 'fwbot:approvals:pending'],
  ['approvals active', (k) => k.approvalsActive(), 'fwbot:approvals:active'],
  [
    'approval refusal mark',
    (k) => k.approvalRefused('ap-1', 'U1', 'not an approver  here'),
    'fwbot:approval:ap-1:refused:U1:not_an_approver_here',
  ],
  [
    'approval noted mark',
    (k) => k.approvalNoted('ap-1', 'held:h 1'),
    'fwbot:approval:ap-1:noted:held%3Ah%201',
  ],
  ['staged changes', (k) => k.staged('lab', 'dev-1'), 'fwbot:staged:lab:dev-1'],
  ['audit trail', (k) => k.audit(), 'fwbot:audit'],
  ['reveal grant', (k) => k.reveal('r1'), 'fwbot:reveal:r1'],
  ['slack first sight', (k) => k.slackSeen('trigger:123.456'), 'fwbot:slack:seen:trigger:123.456'],
  [
    'slack installation (team)',
    (k) => k.slackInstallation({ kind: 'team', teamId: 'T1' }),
    'fwbot:slack:installation:team:T1',
  ],
  [
    'slack installation (enterprise)',
    (k) => k.slackInstallation({ kind: 'enterprise', enterpriseId: 'E1' }),
    'fwbot:slack:installation:enterprise:E1',
  ],
  ['slack installation removed', (k) => k.slackInstallationsRemoved(), 'fwbot:slack:installation:removed'],
  ['slack oauth state', (k) => k.slackOAuthState('abc'), 'fwbot:slack:oauth:state:abc'],
  ['home open', (k) => k.homeOpen(), 'fwbot:home:open'],
  ['home due', (k) => k.homeDue(), 'fwbot:home:due'],
  ['home last', (k) => k.homeLast(), 'fwbot:home:last'],
  ['home workspace', (k) => k.homeWorkspace(), 'fwbot:home:workspace'],
  ['home followed', (k) => k.homeFollowed('U1'), 'fwbot:home:followed:U1'],
  ['home recent', (k) => k.homeRecent('U1'), 'fwbot:home:recent:U1'],
  ['home channels', (k) => k.homeChannels('U1', undefined), 'fwbot:home:channels:U1'],
  ['home channels (workspace)', (k) => k.homeChannels('U1', 'T2'), 'fwbot:home:channels:T2:U1'],
  ['topology', (k) => k.topology(), 'fwbot:topology'],
  [
    'alert scan state',
    (k) => k.alertScanState('lab:eu.1', 'connectivity', 'tenant'),
    'fwbot:fw:alert-scan:state:lab_3Aeu_1:connectivity:tenant',
  ],
  ['alert scan meta', (k) => k.alertScanMeta('lab:eu.1'), 'fwbot:fw:alert-scan:meta:lab_3Aeu_1'],
  ['alert scan outbox', (k) => k.alertScanOutbox('lab'), 'fwbot:fw:alert-scan:outbox:lab'],
  ['alert scan drain', (k) => k.alertScanDrain('lab'), 'fwbot:fw:alert-scan:drain:lab'],
  [
    'alert scan devices',
    (k) => k.alertScanDevices('lab', 'tenant', 'q'),
    'fwbot:fw:alert-scan:devices:bd23abc51a3cb1b1641e52d1a1d44eac',
  ],
  ['alert scan health', (k) => k.alertScanHealth(), 'fwbot:fw:alert-scan:health'],
  ['subscribers', (k) => k.subscribers('t1'), 'fwbot:fw:subs:t1'],
  ['outcome', (k) => k.outcome('t1'), 'fwbot:fw:outcome:t1'],
  ['posting', (k) => k.posting('n1'), 'fwbot:fw:posting:n1'],
  ['posted', (k) => k.posted('n1'), 'fwbot:fw:posted:n1'],
  ['notify lock', (k) => k.notifyLock('n1'), 'fwbot:fw:lock:n1'],
  ['status text', (k) => k.statusText('n1'), 'fwbot:fw:status-text:n1'],
  ['slack pace', (k) => k.slackPace('chat.update', 'C1'), 'fwbot:fw:pace:chat.update:C1'],
  [
    'config snapshots',
    (k) => k.configSnapshots('lab:eu.1', 'dev-1'),
    'fwbot:fw:config-snapshots:lab_3Aeu_1:dev-1',
  ],
  ['config snapshot', (k) => k.configSnapshot('lab', 'dev-1', '3'), 'fwbot:fw:config-snapshot:lab:dev-1:3'],
  [
    'config snapshot sequence',
    (k) => k.configSnapshotSequence('lab', 'dev-1'),
    'fwbot:fw:config-snapshot-seq:lab:dev-1',
  ],
  ['access records', (k) => k.accessRecords('lab:eu.1'), 'fwbot:fw:access-records:lab_3Aeu_1'],
  ['access record sequence', (k) => k.accessRecordSequence('lab'), 'fwbot:fw:access-record-seq:lab'],
  ['config changes reported', (k) => k.configChangesReported('t1'), 'fwbot:fw:config-changes-reported:t1'],
  ['watches', (k) => k.watches('lab'), 'fwbot:fw:watches:lab'],
  ['watch baselined', (k) => k.watchBaselined('lab'), 'fwbot:fw:watch-baselined:lab'],
  ['watched profiles', (k) => k.watchedProfiles(), 'fwbot:fw:watched-profiles'],
  ['alert subscriptions', (k) => k.alertSubscriptions(), 'fwbot:fw:alert-subs'],
  [
    'alert subscription fingerprints',
    (k) => k.alertSubscriptionFingerprints(),
    'fwbot:fw:alert-sub-fingerprints',
  ],
  ['alert channel subscriptions', (k) => k.alertChannelSubscriptions('C1'), 'fwbot:fw:alert-subs-channel:C1'],
  [
    'alert profile subscriptions',
    (k) => k.alertProfileSubscriptions('lab'),
    'fwbot:fw:alert-subs-profile:lab',
  ],
  ['alert profiles', (k) => k.alertProfiles(), 'fwbot:fw:alert-profiles'],
  ['announced runs', (k) => k.announcedRuns('lab'), 'fwbot:fw:announced:lab'],
  ['durations', (k) => k.durations('lab', 'DEPLOY'), 'fwbot:fw:durations:lab:DEPLOY'],
  ['running', (k) => k.running('lab', 'DEPLOY'), 'fwbot:fw:running:lab:DEPLOY'],
  ['running seen at', (k) => k.runningSeenAt('lab', 'DEPLOY'), 'fwbot:fw:running-seen-at:lab:DEPLOY'],
  ['queue starts', (k) => k.queueStarts('deploys', 'lab'), 'fwbot:fw:queue-starts:deploys:lab'],
  [
    'queue key',
    (k) => k.queueKey('deploys', 'lab', 'dev-1:x y'),
    'fwbot:fw:queue-key:deploys:lab:dev-1%3Ax%20y',
  ],
  ['queued call', (k) => k.queuedCall('deploys', 'req-1'), 'fwbot:fw:queued-call:deploys:req-1'],
  [
    'alert seen',
    (k) => k.alertSeen('C1', 'event-1'),
    'fwbot:fw:alert-seen:C1:ce36863f51b6baf9d16397ffb3e9af50',
  ],
  ['incident', (k) => k.incident('i1'), 'fwbot:fw:incident:i1'],
  [
    'incident of',
    (k) => k.incidentOf('C1', 'connectivity:lab:d1'),
    'fwbot:fw:incident-of:C1:aaa7c82a9e107eeddb40546a87fea826',
  ],
  [
    'incident latest',
    (k) => k.incidentLatest('C1', 'connectivity:lab:d1'),
    'fwbot:fw:incident-latest:C1:aaa7c82a9e107eeddb40546a87fea826',
  ],
  ['incident ack', (k) => k.incidentAck('i1'), 'fwbot:fw:incident-ack:i1'],
  ['open incidents', (k) => k.openIncidents('C1'), 'fwbot:fw:incidents-open:C1'],
  ['incident channels', (k) => k.incidentChannels(), 'fwbot:fw:incident-channels'],
  ['desk marks', (k) => k.deskDirty('C1'), 'fwbot:fw:desk-marks:C1'],
  [
    'desk dirty of the release before versioned marks',
    (k) => k.legacyDeskDirty('C1'),
    'fwbot:fw:desk-dirty:C1',
  ],
  ['desk replies', (k) => k.deskReplies('C1'), 'fwbot:fw:desk-replies:C1'],
  ['desk lock', (k) => k.deskLock('C1'), 'fwbot:fw:desk-lock:C1'],
  ['desk burst', (k) => k.deskBurst('C1', 'connectivity'), 'fwbot:fw:desk-burst:C1:connectivity'],
  ['desk opens', (k) => k.deskOpens('C1', 'connectivity'), 'fwbot:fw:desk-opens:C1:connectivity'],
  [
    'alert mute',
    (k) => k.alertMute('C1', 'lab', 'd1'),
    'fwbot:fw:alert-mute:C1:12c5d6a68201e2235b236c4807d970f0',
  ],
  ['device holds', (k) => k.deviceHolds('lab eu'), 'fwbot:fw:holds:lab%20eu'],
  ['hold profiles', (k) => k.holdProfiles(), 'fwbot:fw:hold-profiles'],
  ['hold hashes', (k) => k.holdHashes(), 'fwbot:fw:hold-hashes'],
  ['holder profiles', (k) => k.holderProfiles('ap:1'), 'fwbot:fw:holder:ap%3A1'],
  ['timed item', (k) => k.timedItem('deploy~lab~k'), 'fwbot:fw:timed:deploy~lab~k'],
  ['timed due', (k) => k.timedDue(), 'fwbot:fw:timed-due'],
  ['timed ended', (k) => k.timedEnded(), 'fwbot:fw:timed-ended'],
  ['shown digest', (k) => k.shownDigest('n1'), 'fwbot:fw:shown:n1'],
];

describe('the key space', () => {
  const keys = new RedisKeys('fwbot');

  it.each(FAMILIES)('names %s as earlier releases did', (_family, build, name) => {
    expect(build(keys)).toBe(name);
  });

  it('lists every family of RedisKeys in the table above', () => {
    const methods = Object.getOwnPropertyNames(RedisKeys.prototype).filter(
      (name) => name !== 'constructor' && name !== 'key' && name !== 'at',
    );
    const called = new Set<string>();
    const spy = new Proxy(keys, {
      get: (target, name) => {
        if (typeof name === 'string') called.add(name);
        return Reflect.get(target, name);
      },
    });
    for (const [, build] of FAMILIES) build(spy);
    expect(methods.filter((name) => !called.has(name))).toEqual([]);
  });

  it('reads a prefix with a trailing colon as the same prefix, and keeps a cluster hash tag', () => {
    expect(new RedisKeys('fwbot:').approval('a')).toBe('fwbot:approval:a');
    expect(new RedisKeys(normalisePrefix(undefined)).audit()).toBe('fwbot:audit');
    const tagged = new RedisKeys(slotPrefix('fwbot', true));
    expect(tagged.approval('a')).toBe('{fwbot}:approval:a');
    expect(tagged.outcome('t')).toBe('{fwbot}:fw:outcome:t');
  });
});
