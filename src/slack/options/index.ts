// External selects in /fw forms: devices, tenants and interfaces, looked up in SCC as the user types.
// Here the answer *is* the ack, so the lookup runs first but under a deadline well inside Slack's 3
// seconds; past it the menu gets what is known (nothing) rather than a late answer Slack would drop.
// A lookup is authorized exactly as the form it belongs to, before any SCC call: the person as the
// workspace binding settled them (an external person stays one), the form's operation's role in the
// form's channel, that channel's binding, and the operation's tenancy (a customer channel offers its own
// tenant only, told by UID).
import type { AckFn } from '@slack/bolt';
import type { PlainTextOption } from '@slack/types';
import { isUuid } from '../../catalogue/args.js';
import { uniqueOptions } from '../../catalogue/forms.js';
import type { ModalField } from '../../catalogue/operation.js';
import { INTERFACE_KIND_NAMES, listDeviceInterfaces, resolveDevice } from '../../catalogue/resolve.js';
import { type Scope, scopeTenantIn } from '../../config/scope.js';
import { beginRequest } from '../../dispatch/request.js';
import { SLACK_LIMITS, selectOption } from '../../render/blocks.js';
import type { SccClient } from '../../scc/client.js';
import { allOf, toLucene } from '../../scc/lucene.js';
import type { SurfaceDeps } from '../deps.js';
import { BlockSuggestion } from '../payloads.js';
import type { Listeners } from '../router.js';
import { decodeMetadata } from '../views/metadata.js';
import { fieldBlockId, SELECT_ACTIONS, type SelectKind } from '../views/modal.js';
import { actorWithOrigin } from '../workspaceBinding.js';

const DEFAULT_DEADLINE_MS = 2500;

type Lookup = (
  scc: SccClient,
  typed: string,
  payload: BlockSuggestion,
  signal: AbortSignal,
  field: ModalField | undefined,
  scope: Scope,
) => Promise<Choice[]>;

interface Choice {
  label: string;
  value: string;
}

function matches(typed: string, ...texts: (string | null | undefined)[]): boolean {
  const wanted = typed.trim().toLowerCase();
  return wanted === '' || texts.some((text) => text?.toLowerCase().includes(wanted));
}

const lookups: Record<SelectKind, Lookup> = {
  async device(scc, typed, _payload, signal, field) {
    const q = allOf(field?.deviceQuery, toLucene(typed));
    const { data } = await scc.call('getDevices', {
      query: { limit: SLACK_LIMITS.options, ...(q ? { q } : {}) },
      signal,
    });
    return (data.items ?? []).flatMap((d) =>
      d.uid ? [{ label: `${d.name} · ${d.deviceType}`, value: d.uid }] : [],
    );
  },
  async tenant(scc, typed, _payload, signal, _field, scope) {
    // Display names cannot be searched with q, and a portal holds a few hundred tenants: filter here.
    const { data } = await scc.call('getMspManagedTenants', { query: { limit: 200 }, signal });
    const listed = data.items ?? [];
    // A customer channel offers its own tenant only: the one its binding names, by UID.
    const own = scope.tenant === undefined ? listed : (scopeTenantIn(scope, listed) ?? []);
    return [own]
      .flat()
      .filter((t) => matches(typed, t.name, t.displayName))
      .flatMap((t) =>
        t.uid ? [{ label: t.displayName ? `${t.displayName} (${t.name})` : t.name, value: t.uid }] : [],
      );
  },
  async interface(scc, typed, payload) {
    const device = chosenDevice(payload);
    if (!device) return [];
    const uid = isUuid(device) ? device : (await resolveDevice(scc, device)).uid;
    const all = await listDeviceInterfaces(scc, uid);
    return all
      .filter((i) => matches(typed, i.iface.name, i.iface.hardwareName))
      .map((i) => ({ label: `${i.label} · ${INTERFACE_KIND_NAMES[i.kind]}`, value: i.uid }));
  },
};

/**
 * The form field asking, when the form is a fixed list (fitted forms cannot be rebuilt within the ack;
 * their selects need nothing beyond their kind).
 */
function askingField(deps: SurfaceDeps, operationId: string, blockId: string): ModalField | undefined {
  const fields = deps.operation(operationId)?.modal?.fields;
  return Array.isArray(fields) ? fields.find((f) => fieldBlockId(f.name) === blockId) : undefined;
}

/** The device the form is about: chosen in its device field, or given with the command. */
function chosenDevice(payload: BlockSuggestion): string | undefined {
  const selected = payload.view?.state?.values[fieldBlockId('device')];
  const state = selected ? Object.values(selected)[0] : undefined;
  const fromField = state?.selected_option?.value ?? state?.value ?? undefined;
  if (fromField) return fromField;
  const prefilled = decodeMetadata(payload.view?.private_metadata ?? '')?.prefilled.device;
  return typeof prefilled === 'string' ? prefilled : undefined;
}

function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, ms: number): Promise<T | 'late'> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('late');
    }, ms);
  });
  return Promise.race([work(controller.signal), late]).finally(() => clearTimeout(timer));
}

export function register(app: Listeners, deps: SurfaceDeps): void {
  for (const kind of Object.keys(SELECT_ACTIONS) as SelectKind[]) {
    app.options(SELECT_ACTIONS[kind], async ({ ack, body, context }) => {
      const answer = ack as AckFn<{ options: PlainTextOption[] }>;
      const parsed = BlockSuggestion.safeParse(body);
      const meta = parsed.success ? decodeMetadata(parsed.data.view?.private_metadata ?? '') : undefined;
      if (!parsed.success || !meta) {
        await answer({ options: [] });
        return;
      }
      const payload = parsed.data;
      // The person as the workspace binding settled them, in the form's channel: as the form's submission.
      const actor = actorWithOrigin(
        {
          userId: payload.user.id,
          channelId: meta.channelId,
          teamId: payload.team?.id,
          ...(payload.team?.enterprise_id ? { enterpriseId: payload.team.enterprise_id } : {}),
        },
        context,
      );
      const request = beginRequest(deps.log, `options.${kind}`, actor);
      let options: PlainTextOption[] = [];
      try {
        const op = deps.operation(meta.operationId);
        if (!op) throw new Error(`options asked for an unknown operation ${meta.operationId}`);
        // The form's own check: its operation's role here, the channel's binding, its tenancy.
        const { profile, scope } = await deps.dispatcher.authorize(request, op, meta.profileOverride);
        const scc = deps.scc.get(profile);
        const field = askingField(deps, meta.operationId, payload.block_id);
        const found = await withDeadline(
          (signal) => lookups[kind](scc, payload.value, payload, signal, field, scope),
          deps.optionsDeadlineMs ?? DEFAULT_DEADLINE_MS,
        );
        if (found === 'late') request.log.warn('options lookup passed its deadline; answered with none');
        else {
          // A lookup read page by page may meet one item twice: each value is offered once.
          options = uniqueOptions(found)
            .map((choice) => selectOption(choice.label, choice.value))
            .filter((option): option is PlainTextOption => option !== undefined)
            .slice(0, SLACK_LIMITS.options);
        }
      } catch (error) {
        request.log.warn({ err: error }, 'options lookup failed; answered with none');
      }
      await answer({ options });
    });
  }
}
