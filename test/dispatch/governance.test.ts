// The approval rule of each operation in a deployment: its declaration, with what the policy file's
// `approvals.operations` says; refused at start-up with the key named when the file asks for what the
// declaration does not allow.
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../src/catalogue/index.js';
import { ConfigError } from '../../src/config/issues.js';
import { governanceOf } from '../../src/dispatch/governance.js';

const catalogue = createCatalogue();
const op = (id: string) => {
  const found = catalogue.get(id);
  if (!found) throw new Error(id);
  return found;
};

describe('governance: declarations and the policy file', () => {
  it('gives every operation, when the file says nothing, the rule its declaration names', () => {
    const rule = governanceOf(catalogue.operations, {});
    for (const operation of catalogue.operations) {
      const { approval } = operation;
      const fourEyes =
        approval === 'always' || (typeof approval === 'object' && approval.default === 'four-eyes');
      expect(rule(operation), operation.id).toEqual({ kind: fourEyes ? 'four-eyes' : 'none' });
    }
  });

  it('lets the file change exactly the operations governed by policy, and refuses it every other one', () => {
    for (const operation of catalogue.operations) {
      const { id, approval } = operation;
      const change = () => governanceOf(catalogue.operations, { [id]: 'admin' })(operation);
      if (typeof approval === 'object') expect(change(), id).toEqual({ kind: 'role', role: 'admin' });
      else expect(change, id).toThrow(ConfigError);
    }
  });

  it('applies the declared defaults when the file says nothing', () => {
    const rule = governanceOf(catalogue.operations, {});
    expect(rule(op('interfaces.delete'))).toEqual({ kind: 'four-eyes' });
    expect(rule(op('tenants.token'))).toEqual({ kind: 'four-eyes' });
    expect(rule(op('tenants.users.add'))).toEqual({ kind: 'four-eyes' });
    expect(rule(op('gateway.run'))).toEqual({ kind: 'four-eyes' });
    expect(rule(op('vpn.upgrade'))).toEqual({ kind: 'none' });
    expect(rule(op('tenants.list'))).toEqual({ kind: 'none' });
  });

  it('lets the file lower a four-eyes default to a role or none, and raise a none default', () => {
    const rule = governanceOf(catalogue.operations, {
      'tenants.token': 'admin',
      'gateway.run': 'none',
      'vpn.upgrade': 'four-eyes',
    });
    expect(rule(op('tenants.token'))).toEqual({ kind: 'role', role: 'admin' });
    expect(rule(op('gateway.run'))).toEqual({ kind: 'none' });
    expect(rule(op('vpn.upgrade'))).toEqual({ kind: 'four-eyes' });
  });

  it('refuses, naming each key, what the declarations do not allow', () => {
    const attempt = () =>
      governanceOf(catalogue.operations, {
        'interfaces.delete': 'admin',
        'tenants.list': 'four-eyes',
        'tenants.nuke': 'none',
        'tenants.token': 'boss',
      });
    expect(attempt).toThrow(ConfigError);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('approvals.operations.interfaces.delete: interfaces.delete always needs');
    expect(message).toContain('approvals.operations.tenants.list: tenants.list is not a governed operation');
    expect(message).toContain('approvals.operations.tenants.nuke: fwbot has no operation tenants.nuke');
    expect(message).toContain('approvals.operations.tenants.token: is not four-eyes, none or a role');
  });
});
