// Object NAT of the simulated ASA's policy: the `nat (real,mapped) static|dynamic …` lines inside
// `object network NAME` blocks (asaObjects.ts hands them over), read into the static and dynamic
// translations the packet tracer (asaPacketTracer.ts), `show xlate` (asaShow.ts) and the objects' usages
// (api/objects.ts) read. The real addresses are the object's own; the mapped ones an object's or an address.
// Pure functions.
import { writtenNetworks } from './asaAddresses.js';
import { type Definitions, networksOf } from './asaObjects.js';
import type { DynamicNat, StaticNat } from './asaPolicyModel.js';

/** A `nat …` line of an object's block, and the object it translates. */
export interface ObjectNatLine {
  object: string;
  line: string;
}

/** The static object NAT of those lines: `nat (real,mapped) static MAPPED` (an object's name or an address). */
export function staticNatsOf(defs: Definitions, natLines: readonly ObjectNatLine[]): StaticNat[] {
  return natLines.flatMap(({ object, line }) => {
    const m = /^nat \(([^,]+),([^)]+)\) static (\S+)/.exec(line);
    if (m === null) return [];
    const real = defs.objects.get(object)?.networks ?? [];
    const target = m[3] ?? '';
    const mapped = defs.objects.has(target) ? networksOf(defs, target) : writtenNetworks(['host', target]);
    return [
      {
        objectName: object,
        realInterface: m[1] ?? '',
        mappedInterface: m[2] ?? '',
        real,
        mapped,
        text: line,
      },
    ];
  });
}

/**
 * The dynamic object NAT of those lines: `nat (real,mapped) dynamic interface` (PAT to the mapped interface's
 * own address) or `dynamic MAPPED`.
 */
export function dynamicNatsOf(defs: Definitions, natLines: readonly ObjectNatLine[]): DynamicNat[] {
  return natLines.flatMap(({ object, line }) => {
    const m = /^nat \(([^,]+),([^)]+)\) dynamic (\S+)/.exec(line);
    if (m === null) return [];
    const target = m[3] ?? '';
    const mapped =
      target === 'interface'
        ? ('interface' as const)
        : defs.objects.has(target)
          ? networksOf(defs, target)
          : writtenNetworks(['host', target]);
    return [
      {
        objectName: object,
        realInterface: m[1] ?? '',
        mappedInterface: m[2] ?? '',
        real: defs.objects.get(object)?.networks ?? [],
        mapped,
        text: line,
      },
    ];
  });
}
