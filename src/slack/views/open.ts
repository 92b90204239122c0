// Opening an operation's modal from /fw. The trigger id is valid for 3 seconds and once, so views.open
// runs right after the permission check. A fixed form opens directly. A form fitted to what is edited
// (which needs SCC, e.g. the interface's kind) opens directly too when SCC answers within a second; a form
// that cannot be filled (catalogue/forms.ts: a select with nothing to choose) then opens nothing, and the
// person is told why like any refusal. When SCC is slower, the form opens as "Loading…" before the trigger
// id expires and is replaced (views.update with the view's hash) once SCC has answered, by the form or by
// the reason it cannot be filled.
import { formFields, showableFields } from '../../catalogue/forms.js';
import type { ModalField, Operation, RawArgs } from '../../catalogue/operation.js';
import { fitTicketField } from '../../catalogue/tickets.js';
import type { ButtonForm, ButtonInvocation } from '../../dispatch/buttons.js';
import { explainError } from '../../dispatch/errors.js';
import type { RequestContext } from '../../dispatch/request.js';
import type { SurfaceDeps } from '../deps.js';
import { encodeMetadata } from './metadata.js';
import { channelPicker, operationModal, textNotice } from './modal.js';

/**
 * How long a fitted form waits for SCC before opening as "Loading…": the trigger id lives 3 s from when
 * Slack sent the command, and views.open itself must reach Slack within them.
 */
export const FORM_DEADLINE_MS = 1_000;

export interface ModalRequest {
  op: Operation;
  raw: RawArgs;
  triggerId: string;
  responseUrl: string | undefined;
  profileOverride?: string | undefined;
  /**
   * Opened outside a channel (a button of the App Home): the form asks for the channel the call is made
   * in (CHANNEL_BLOCK), and its submission is dispatched as if typed there.
   */
  pickChannel?: boolean;
}

/** Prefilled arguments minus the values of secret fields (which never travel in metadata). */
function withoutSecrets(op: Operation, raw: RawArgs): RawArgs {
  const fields = op.modal?.fields;
  if (!Array.isArray(fields)) return raw;
  const secret = new Set(fields.filter((field) => field.input === 'secret').map((field) => field.name));
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !secret.has(name)));
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** How `work` ended if it ended within `ms`; undefined if it is still going (it goes on regardless). */
async function settledWithin<T>(work: Promise<T>, ms: number): Promise<Settled<T> | undefined> {
  if (ms <= 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  const settled = work.then(
    (value): Settled<T> => ({ ok: true, value }),
    (error: unknown): Settled<T> => ({ ok: false, error }),
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

/**
 * Opens the form a command button needs first (what the policy requires that the button cannot carry:
 * Dispatcher.buttonForm), prefilled with the button's arguments; its submission is dispatched as the
 * button's call (`button` entry), with what was filled in.
 */
export async function openButtonForm(
  deps: SurfaceDeps,
  request: RequestContext,
  opened: {
    invocation: ButtonInvocation;
    form: ButtonForm;
    triggerId: string;
    responseUrl: string | undefined;
  },
): Promise<void> {
  const { invocation, form } = opened;
  const metadata = encodeMetadata({
    operationId: invocation.op.id,
    channelId: request.actor.channelId,
    profileOverride: invocation.profileOverride,
    prefilled: invocation.raw,
    responseUrl: opened.responseUrl,
    entry: 'button',
  });
  await deps.slack.openView(opened.triggerId, operationModal(form, form.fields, invocation.raw, metadata));
  request.log.info({ operationId: invocation.op.id, fields: form.fields.length }, 'opened the button’s form');
}

/**
 * Opens the operation's form for the command's trigger id. A form that cannot be filled, found before
 * anything opened, is thrown (a UserError) for the caller to answer privately like any refusal.
 */
export async function openOperationModal(
  deps: SurfaceDeps,
  request: RequestContext,
  modal: ModalRequest,
): Promise<void> {
  const { op, raw } = modal;
  const spec = op.modal;
  if (!spec) throw new Error(`${op.id} has no modal`);
  const access = await deps.dispatcher.authorize(request, op, modal.profileOverride);
  const prefilled = withoutSecrets(op, raw);
  const metadata = encodeMetadata({
    operationId: op.id,
    channelId: modal.pickChannel ? '' : request.actor.channelId,
    profileOverride: modal.profileOverride,
    prefilled,
    responseUrl: modal.responseUrl,
  });
  const form = (fields: readonly ModalField[]) => {
    const view = operationModal(spec, fields, prefilled, metadata);
    return modal.pickChannel ? { ...view, blocks: [channelPicker(), ...view.blocks] } : view;
  };
  const open = async (fields: readonly ModalField[]) => {
    await deps.slack.openView(modal.triggerId, form(fields));
    request.log.info({ operationId: op.id, fields: fields.length }, 'opened the form');
  };
  if (typeof spec.fields !== 'function') {
    const { policy } = deps.dispatcher.context(request, access.profile);
    await open(showableFields(fitTicketField(spec.fields, policy?.changes)));
    return;
  }
  const fitting = formFields(spec, deps.dispatcher.context(request, access.profile), prefilled);
  const early = await settledWithin(fitting, deps.formDeadlineMs ?? FORM_DEADLINE_MS);
  if (early?.ok) return open(early.value);
  if (early) throw early.error;
  const opened = await deps.slack.openView(modal.triggerId, textNotice(spec.title, ':hourglass: Loading…'));
  try {
    const fitted = await fitting;
    await deps.slack.updateView(opened.id, form(fitted), opened.hash);
    request.log.info({ operationId: op.id, fields: fitted.length }, 'opened the fitted form');
  } catch (error) {
    const explained = explainError(error, request);
    await deps.slack.updateView(opened.id, textNotice(spec.title, explained.text), opened.hash);
  }
}
