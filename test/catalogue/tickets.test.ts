// The ticket rules on their own: off, optional and required; the pattern; the one shape every ticket has;
// the form field fitted to the policy; the link; the deploy description.
import { describe, expect, it } from 'vitest';
import {
  checkTicket,
  fitTicketField,
  ticketedDescription,
  ticketField,
  ticketLink,
} from '../../src/catalogue/tickets.js';
import { defaultChanges } from '../../src/config/profilesFileSchema.js';
import type { ChangeSettings } from '../../src/config.js';
import { UsageError } from '../../src/model/errors.js';

const rule = (ticket: ChangeSettings['ticket'], pattern?: string): ChangeSettings => ({
  ...defaultChanges,
  ticket,
  ticketPattern: pattern,
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('change tickets', () => {
  it('takes none when tickets are off or optional, and carries one given', () => {
    expect(checkTicket('deploy', {}, rule('off'))).toBeUndefined();
    expect(checkTicket('deploy', {}, rule('optional'))).toBeUndefined();
    expect(checkTicket('deploy', {}, undefined)).toBeUndefined();
    expect(checkTicket('deploy', { ticket: ' CHG0000001 ' }, rule('optional'))).toBe('CHG0000001');
  });

  it('refuses a missing ticket where required, and one the pattern refuses even where optional', () => {
    expect(refusal(() => checkTicket('deploy', { ticket: '  ' }, rule('required')))).toMatch(
      /^`ticket` is required/,
    );
    expect(refusal(() => checkTicket('deploy', { ticket: 'INC1' }, rule('optional', '^CHG[0-9]{7}$')))).toBe(
      '`ticket` must match the policy’s ticket pattern `^CHG[0-9]{7}$`.',
    );
    expect(refusal(() => checkTicket('deploy', { ticket: 'CHG 1' }, rule('off')))).toMatch(
      /^`ticket` must be one word/,
    );
  });

  it('fits the form field to the policy: gone when off, optional or required as it says', () => {
    const other = { name: 'name', label: 'Name', input: 'text' as const };
    expect(fitTicketField([other, ticketField], rule('off')).map((f) => f.name)).toEqual(['name']);
    expect(fitTicketField([other, ticketField], rule('optional')).at(-1)?.optional).toBe(true);
    expect(fitTicketField([other, ticketField], rule('required')).at(-1)?.optional).toBe(false);
  });

  it('links the ticket URL-encoded, only over https, and puts it first in a deploy description', () => {
    expect(ticketLink('CHG.1', 'https://itsm.example/c?n={ticket}')).toBe('https://itsm.example/c?n=CHG.1');
    expect(ticketLink('A_b-1', 'https://itsm.example/{ticket}/x')).toBe('https://itsm.example/A_b-1/x');
    expect(ticketLink('CHG1', 'http://itsm.example/{ticket}')).toBeUndefined();
    expect(ticketLink('CHG1', undefined)).toBeUndefined();
    expect(ticketedDescription('CHG1', 'guest VLAN (fwbot request ap-1)')).toBe(
      'CHG1: guest VLAN (fwbot request ap-1)',
    );
    expect(ticketedDescription(undefined, 'x')).toBe('x');
  });
});
