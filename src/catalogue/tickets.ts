// Change tickets (issue 28): every operation that changes SCC or a device takes `--ticket` (a field of its
// form), declared once in defineOperation rather than per operation. This module owns what a ticket is:
// its parameter and form field, the check against the policy (`changes.ticket`, `changes.ticket_pattern`)
// that the dispatcher makes before anything else happens, its link (`changes.ticket_url`), the deploy
// description SCC stores (`<TICKET>: …`), and the SCC change request of that name a deploy is tied to when
// the tenant tracks change requests.
import type { ChangeSettings } from '../config/profilesFileSchema.js';
import { UsageError } from '../model/errors.js';
import type { Param, RawArgs } from '../model/types.js';
import { isLinkableUrl } from '../render/format.js';
import { fieldIs } from '../scc/lucene.js';
import type { OperationContext } from './context.js';
import type { ModalField } from './modal.js';

/** The argument (and form field) that carries the ticket. */
export const TICKET = 'ticket';

/**
 * What any ticket looks like, whatever the policy's own pattern: it goes into SCC's deploy description as
 * `<TICKET>: …` (so no colon or space), into a Lucene query and a URL, and onto the card.
 */
const TICKET_SHAPE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const ticketParam: Param = {
  name: TICKET,
  kind: 'word',
  flag: true,
  optional: true,
  description: 'the change ticket this change is made under (e.g. CHG0012345); the policy may require it',
};

/** The form's field; fitted to the policy when the form is shown (see fitTicketField). */
export const ticketField: ModalField = {
  name: TICKET,
  label: 'Change ticket',
  input: 'text',
  optional: true,
  placeholder: 'CHG0012345',
  hint: 'The change ticket this change is made under.',
};

/**
 * The ticket field as the policy wants it: left out when tickets are off (or no policy is given), required
 * when they are required. Other fields pass unchanged.
 */
export function fitTicketField(
  fields: readonly ModalField[],
  changes: ChangeSettings | undefined,
): ModalField[] {
  const rule = changes?.ticket ?? 'off';
  return fields.flatMap((field) => {
    if (field.name !== TICKET || field.input !== 'text') return [field];
    if (rule === 'off') return [];
    return [{ ...field, optional: rule === 'optional' }];
  });
}

/** The ticket the raw arguments carry, trimmed; undefined when none was given. */
export function ticketOf(raw: RawArgs): string | undefined {
  const value = raw[TICKET];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Raw arguments without the ticket: the operation's own schema never sees it. */
export function withoutTicket(raw: RawArgs): RawArgs {
  if (!(TICKET in raw)) return raw;
  const { [TICKET]: _ticket, ...rest } = raw;
  return rest;
}

/**
 * The ticket of a call that changes something, checked against the policy: a missing ticket where one is
 * required, or one the pattern refuses, is one sentence (a UsageError on the `ticket` argument, so a form
 * shows it under its field). Returns the ticket, or undefined when none is given and none is needed.
 */
export function checkTicket(
  operationId: string,
  raw: RawArgs,
  changes: ChangeSettings | undefined,
): string | undefined {
  const ticket = ticketOf(raw);
  const refuse = (message: string): never => {
    throw new UsageError(operationId, [{ arg: TICKET, message }]);
  };
  if (ticket === undefined) {
    if (changes?.ticket === 'required')
      refuse(
        'is required: the policy asks for the change ticket of every change to SCC or a device (--ticket CHG…)',
      );
    return undefined;
  }
  if (!TICKET_SHAPE.test(ticket))
    refuse('must be one word of letters, digits, ".", "_" and "-" (up to 64), such as CHG0012345');
  const pattern = changes?.ticketPattern;
  // The pattern compiled when the configuration was loaded (src/config/profilesFileSchema.ts).
  if (pattern !== undefined && !new RegExp(pattern).test(ticket))
    refuse(`must match the policy’s ticket pattern \`${pattern}\``);
  return ticket;
}

/** The ticket's link from the policy's template, or undefined when there is none (or it is not https). */
export function ticketLink(ticket: string, template: string | undefined): string | undefined {
  if (template === undefined) return undefined;
  const url = template.replaceAll('{ticket}', encodeURIComponent(ticket));
  return isLinkableUrl(url) ? url : undefined;
}

/**
 * The description SCC stores with a deploy: `<TICKET>: <description>`, the ticket first so SCC (and people
 * reading its deployment runs) see which change it belongs to.
 */
export function ticketedDescription(ticket: string | undefined, description: string): string {
  return ticket === undefined ? description : `${ticket}: ${description}`;
}

/** The change request a deploy was tied to, and whether fwbot opened it. */
export interface ChangeRequestUse {
  readonly uid: string;
  readonly name: string;
  readonly created: boolean;
}

/**
 * When the tenant tracks change requests (`changeRequestSupport` in its settings), the change request named
 * like the call's ticket: found, or created when the tenant has none of that name. Undefined when the call
 * has no ticket or the tenant does not track change requests. Called right before a deploy, so SCC's change
 * log ties the deploy's changes to it.
 */
export async function changeRequestFor(
  ctx: OperationContext,
  purpose: string,
): Promise<ChangeRequestUse | undefined> {
  const ticket = ctx.ticket;
  if (ticket === undefined) return undefined;
  const settings = await ctx.scc.governance.tenantSettings();
  if (settings.changeRequestSupport !== true) return undefined;
  const page = await ctx.scc.governance.changeRequests({ q: fieldIs('name', ticket), limit: 50 });
  // The query narrows; the name decides (a search may match more loosely than equality).
  const found = (page.items ?? []).find((item) => item.name === ticket);
  if (found) return { uid: found.uid, name: found.name, created: false };
  const created = await ctx.scc.governance.createChangeRequest({
    name: ticket,
    description: `Opened by fwbot for ${purpose}`,
  });
  ctx.log.info({ changeRequestUid: created.uid }, 'opened the change request of the ticket');
  return { uid: created.uid, name: created.name, created: true };
}
