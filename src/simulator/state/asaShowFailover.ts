// `show failover` on the simulated ASA, as 9.x prints it: the unit's state, the pair's versions and serial
// numbers, both hosts with their monitored interfaces, and the stateful link's statistics after them (the
// part that makes a real answer long: people read the hosts' lines). From the device record and the clock;
// counters are derived, never random, so an answer repeats.
import type { AsaDeviceView } from './asaCommandLine.js';
import { asaVersion, stable } from './asaShowFormat.js';

/** The stateful failover link's statistics, as 9.x prints them after the units (derived, stable). */
function statefulStatistics(view: AsaDeviceView, activeSeconds: number): string[] {
  const uid = view.device.device.uid;
  const objects = [
    'General',
    'sys cmd',
    'up time',
    'RPC services',
    'TCP conn',
    'UDP conn',
    'ARP tbl',
    'Xlate_Timeout',
    'IPv6 ND tbl',
    'VPN IKEv1 SA',
    'VPN IKEv1 P2',
    'VPN IKEv2 SA',
    'VPN IKEv2 P2',
    'VPN CTCP upd',
    'VPN SDI upd',
    'VPN DHCP upd',
    'SIP Session',
    'SIP Tx',
    'SIP Pinhole',
    'Route Session',
    'Router ID',
    'User-Identity',
    'CTS SGTNAME',
    'CTS PAC',
    'TrustSec-SXP',
    'IPv6 Route',
    'STS Table',
  ];
  const cell = (n: number) => String(n).padEnd(10);
  const rows = objects.map((name) => {
    const busy = ['General', 'sys cmd', 'TCP conn', 'UDP conn', 'ARP tbl', 'VPN IKEv2 SA'].includes(name);
    const xmit = busy ? Math.floor(activeSeconds / 10) * (1 + stable(40, uid, name)) : 0;
    const rcv = busy ? Math.floor(xmit * 0.7) : 0;
    return `\t${name.padEnd(16)}${cell(xmit)} ${cell(0)} ${cell(rcv)} ${cell(0)}`;
  });
  return [
    'Stateful Failover Logical Update Statistics',
    '\tLink : folink GigabitEthernet1/8 (up)',
    `\tStateful Obj    ${['xmit', 'xerr', 'rcv', 'rerr'].map((h) => h.padEnd(10)).join(' ')}`,
    ...rows,
    '',
    '\tLogical Update Queue Information',
    '\t\t\tCur\tMax\tTotal',
    `\tRecv Q:\t\t0\t${5 + stable(30, uid, 'recv')}\t${Math.floor(activeSeconds / 3)}`,
    `\tXmit Q:\t\t0\t${5 + stable(30, uid, 'xmit')}\t${Math.floor(activeSeconds / 2)}`,
  ];
}

export function showFailover(view: AsaDeviceView): string {
  const d = view.device.device;
  const mode = d.asaFailoverMode ?? 'OFF';
  const version = asaVersion(d.softwareVersion ?? '');
  const common = [
    'Reconnect timeout 0:00:00',
    'Unit Poll frequency 1 seconds, holdtime 15 seconds',
    'Interface Poll frequency 5 seconds, holdtime 25 seconds',
    'Interface Policy 1',
  ];
  if (mode === 'OFF') {
    return [
      'Failover Off',
      'Failover unit Primary',
      'Failover LAN Interface: not Configured',
      ...common,
      'Monitored Interfaces 0 of 1285 maximum',
      'MAC Address Move Notification Interval not set',
      '',
    ].join('\n');
  }
  const mate = d.asaFailoverMate;
  const state = d.asaFailoverState ?? 'Primary - Active';
  const unit = state.startsWith('Secondary') ? 'Secondary' : 'Primary';
  const activeSeconds = Math.max(0, Math.floor((view.now - view.bootTime) / 1000));
  const monitored = view.interfaces.filter((i) => i.monitorInterface === true && typeof i.name === 'string');
  const model = d.modelNumber ?? 'ASA5516';
  const slot = `\t\tslot 1: ${model} hw/sw rev (3.1/${version}) status (Up Sys)`;
  const hostLines = (ours: boolean) =>
    monitored.map((i) => {
      const address = i.ipv4?.ipAddress;
      const shown = ours ? address?.ipAddress : (address?.standbyIpAddress ?? '0.0.0.0');
      return `\t\t  Interface ${i.name} (${shown ?? '0.0.0.0'}): Normal (Monitored)`;
    });
  return [
    'Failover On',
    `Failover unit ${unit}`,
    'Failover LAN Interface: folink GigabitEthernet1/8 (up)',
    ...common,
    `Monitored Interfaces ${monitored.length} of 1285 maximum`,
    'MAC Address Move Notification Interval not set',
    'failover replication http',
    `Version: Ours ${version}, Mate ${asaVersion(mate?.softwareVersion ?? d.softwareVersion ?? '')}`,
    `Serial Number: Ours ${d.serial ?? ''}, Mate ${mate?.serial ?? ''}`,
    `Last Failover at: ${failoverTime(view.bootTime)}`,
    `\tThis host: ${state}`,
    `\t\tActive time: ${state.endsWith('Active') ? activeSeconds : 0} (sec)`,
    slot,
    ...hostLines(true),
    `\tOther host: ${mate?.failoverState ?? 'Secondary - Standby Ready'}`,
    `\t\tActive time: ${state.endsWith('Active') ? 0 : activeSeconds} (sec)`,
    slot,
    ...hostLines(false),
    '',
    ...statefulStatistics(view, activeSeconds),
    '',
  ].join('\n');
}

/** `13:48:59 UTC Dec 1 2025`: when the pair last changed roles (at boot, for the simulator). */
function failoverTime(at: number): string {
  const t = new Date(at);
  const month = t.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const clock = t.toISOString().slice(11, 19);
  return `${clock} UTC ${month} ${t.getUTCDate()} ${t.getUTCFullYear()}`;
}
