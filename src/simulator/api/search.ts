// SCC's global search (scc-openapi-lookups.yaml: search) over the caller's tenant: devices whose name,
// address or serial holds the term (an ASA also when a line of its running configuration does, those
// lines as `matchingConfigurations`), the cloud-delivered FMC as a manager, objects by name or content,
// and access groups (policies) by name. Case-insensitive substring matching; `q` is required and may not
// be blank (400). Nothing of a cdFMC's own objects is searched: `cdFmcResult` is empty lists.
import { invalidInput } from '../errors.js';
import type { Handler, OperationHandlers } from '../http/context.js';
import { configOnDevice } from '../state/asaConfig.js';
import { cloudPolicyOf } from '../state/asaPolicy.js';
import type { DeviceRecord } from '../state/model.js';
import { tenantDevices } from './devices.js';
import { objectsMatching } from './objects.js';
import { deviceAccessGroups } from './policies.js';

interface EntityDto {
  uid: string;
  name: string;
  type: 'ASA' | 'CDFMC_MANAGED_FTD' | 'CDFMC';
  address?: string;
  matchingConfigurations?: string[];
}

const TYPE: Record<DeviceRecord['kind'], EntityDto['type']> = {
  ASA: 'ASA',
  FTD: 'CDFMC_MANAGED_FTD',
  CDFMC: 'CDFMC',
};

export const search: Handler = (ctx) => {
  const term = (ctx.query.get('q') ?? '').trim();
  if (term === '') {
    throw invalidInput('q is required: the text to search for', { q: { message: 'must not be blank' } });
  }
  const needle = term.toLowerCase();
  const holds = (text: string | null | undefined) => (text ?? '').toLowerCase().includes(needle);
  const devices: EntityDto[] = [];
  const managers: EntityDto[] = [];
  const policies: { uid: string; name: string }[] = [];
  for (const record of tenantDevices(ctx)) {
    const d = record.device;
    const entity: EntityDto = {
      uid: d.uid,
      name: d.name,
      type: TYPE[record.kind],
      ...(d.address ? { address: d.address } : {}),
    };
    const matching =
      record.kind === 'ASA'
        ? configOnDevice(ctx.state, record)
            .split('\n')
            .filter((line) => holds(line) && !line.startsWith('Cryptochecksum:'))
            .map((line) => line.trim())
        : [];
    if (matching.length > 0) entity.matchingConfigurations = matching;
    if (holds(d.name) || holds(d.address) || holds(d.serial) || matching.length > 0) {
      (record.kind === 'CDFMC' ? managers : devices).push(entity);
    }
    if (record.kind === 'ASA') {
      for (const group of deviceAccessGroups(record, cloudPolicyOf(ctx.state, d.uid))) {
        if (holds(group.name)) policies.push({ uid: group.uid, name: group.name });
      }
    }
  }
  const objects = objectsMatching(ctx, term).map((o) => ({
    uid: o.uid,
    name: o.name,
    objectType: o.value.objectType,
    elements: o.elements,
    ...(o.description === undefined ? {} : { description: o.description }),
  }));
  return {
    status: 200,
    body: {
      inventory: { devices, managers, services: [] },
      objects,
      policies,
      cdFmcResult: { devices: [], objects: [], policies: [] },
    },
  };
};

/** The global search: this file's handlers, which the table (operations.ts) spreads. */
export const searchHandlers = {
  search,
} satisfies Partial<OperationHandlers>;
