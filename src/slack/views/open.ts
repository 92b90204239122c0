// Opening an operation's modal from /fw. The trigger id is valid for 3 seconds and once, so views.open
// runs right after the permission check: a fixed form opens directly; a form fitted to what is edited
// (which needs SCC, e.g. the interface's kind) opens as "Loading…" and is replaced (views.update with
// the view's hash) once SCC has answered.
import type { Operation, RawArgs } from '../../catalogue/operation.js';
import { explainError } from '../../dispatch/errors.js';
import type { RequestContext } from '../../dispatch/request.js';
import type { SurfaceDeps } from '../deps.js';
import { encodeMetadata } from './metadata.js';
import { operationModal, textNotice } from './modal.js';

export interface ModalRequest {
  op: Operation;
  raw: RawArgs;
  triggerId: string;
  responseUrl: string | undefined;
  profileOverride?: string | undefined;
}

/** Prefilled arguments minus the values of secret fields (which never travel in metadata). */
function withoutSecrets(op: Operation, raw: RawArgs): RawArgs {
  const fields = op.modal?.fields;
  if (!Array.isArray(fields)) return raw;
  const secret = new Set(fields.filter((field) => field.input === 'secret').map((field) => field.name));
  return Object.fromEntries(Object.entries(raw).filter(([name]) => !secret.has(name)));
}

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
    channelId: request.actor.channelId,
    profileOverride: modal.profileOverride,
    prefilled,
    responseUrl: modal.responseUrl,
  });
  const fields = spec.fields;
  if (typeof fields !== 'function') {
    await deps.slack.openView(modal.triggerId, operationModal(spec, fields, prefilled, metadata));
    request.log.info({ operationId: op.id }, 'opened the form');
    return;
  }
  const opened = await deps.slack.openView(modal.triggerId, textNotice(spec.title, ':hourglass: Loading…'));
  try {
    const fitted = await fields(deps.dispatcher.context(request, access.profile), prefilled);
    await deps.slack.updateView(opened.id, operationModal(spec, fitted, prefilled, metadata), opened.hash);
    request.log.info({ operationId: op.id, fields: fitted.length }, 'opened the fitted form');
  } catch (error) {
    const explained = explainError(error, request);
    await deps.slack.updateView(opened.id, textNotice(spec.title, explained.text), opened.hash);
  }
}
