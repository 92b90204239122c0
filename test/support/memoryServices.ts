// The Redis-backed services a running fwbot gives operations (src/catalogue/services.ts), kept in memory:
// an audit trail holding the records given, and a watch registry. For tests of the operations that run
// on them (audit, vpn watch / unwatch) without the approvals service or the jobs.
import type { AuditRecord, OperationServices, UpgradeWatch } from '../../src/catalogue/operation.js';

export function memoryServices(audit: readonly AuditRecord[] = []): OperationServices {
  const watches: UpgradeWatch[] = [];
  return {
    watches: {
      async watch(watch) {
        const known = watches.some((w) => w.channelId === watch.channelId && w.profile === watch.profile);
        if (!known) watches.push(watch);
        return { created: !known };
      },
      async unwatch(channelId, profile) {
        const at = watches.findIndex((w) => w.channelId === channelId && w.profile === profile);
        if (at >= 0) watches.splice(at, 1);
        return { removed: at >= 0 };
      },
      async list() {
        return watches;
      },
    },
    audit: { latest: async (count) => audit.slice(0, count) },
  };
}
