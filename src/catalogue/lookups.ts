// "Where is this, and what does the firewall do with it?" read from SCC: its global search (`/fw search`),
// an ASA's access rules in order with the shadowed and duplicate ones flagged (`/fw rules`, one rule with
// `/fw rules show`), and objects with where each is used (`/fw objects`, `/fw objects show`). All of them
// only read, for viewers. The rules are the ASA's own: asking for them of another kind of device is said
// before anything else is read.
//
// A query after `rules` is the rules' own: text with a colon is Lucene ANDed with the device, other text
// is looked for in the rule's configuration line (`WEB-01` → `ruleConfigurationText:*WEB\-01*`). A query
// after `objects` searches the object's name unless it has a colon; SCC can search objects only by name and
// content, and refuses any other field with a 400 the user reads as a sentence.
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { type AccessGroupLabel, accessGroupLabel, renderRule, renderRules } from '../render/accessRules.js';
import { pageInfo } from '../render/list.js';
import { renderObject, renderObjects } from '../render/objects.js';
import { PAGE_SIZE } from '../render/paging.js';
import { renderSearch } from '../render/search.js';
import type { AccessRule, ObjectResponse, ReferenceInfo } from '../scc/generated/models.js';
import { allOf, exactLucene, fieldIs, toLucene } from '../scc/lucene.js';
import { isUuid, list, offset, optionalText, text } from './args.js';
import { OFFSET, queryParam } from './common.js';
import { defineOperation, type Operation, type OperationContext } from './operation.js';
import { boundedPaginate, type DeviceRequirement, resolveDevice } from './resolve.js';
import { isNotFound } from './sccErrors.js';

export const ASA_RULES: DeviceRequirement = {
  kinds: ['asa'],
  why: 'access rules are read here for ASAs only',
};

/** The ASA argument of the rules commands. */
export const ASA_PARAM = { name: 'asa', kind: 'device', description: 'ASA name or UUID' } as const;

/** A configuration line number: what `/fw rules` shows in its Line column. */
export const LINE_NUMBER = /^\d{1,7}$/;

/** `q` of the rules of one device, narrowed by what was typed (see the header). */
export function rulesQuery(deviceUid: string, typed: string | undefined): string {
  const device = fieldIs('entityUid', deviceUid);
  return allOf(device, toLucene(typed, 'ruleConfigurationText')) ?? device;
}

/** Every access group of the device, by UUID, as its rules are labelled. */
async function accessGroupsOf(
  ctx: OperationContext,
  device: { uid: string; name: string },
): Promise<Map<string, AccessGroupLabel>> {
  const groups = await boundedPaginate(
    ctx.scc,
    'listAccessGroups',
    { query: { q: fieldIs('entityUid', device.uid) } },
    `access groups of ${device.name}`,
  );
  return new Map(groups.map((group, order) => [group.uid, accessGroupLabel(group, order)]));
}

/** Rules in order: by access group (as SCC lists the groups), then by their index in it. */
export function inOrder(rules: readonly AccessRule[], groups: ReadonlyMap<string, AccessGroupLabel>) {
  const order = (rule: AccessRule) => groups.get(rule.accessGroupUid)?.order ?? Number.MAX_SAFE_INTEGER;
  return [...rules].sort((a, b) => order(a) - order(b) || a.index - b.index);
}

export const search = defineOperation({
  id: 'search',
  words: ['search'],
  area: 'policy',
  failure: 'Could not search SCC',
  summary:
    'SCC’s global search: devices (with the matching lines of an ASA’s configuration), managers, services, objects and policies',
  params: [
    {
      name: 'text',
      kind: 'word',
      variadic: true,
      description: 'what to look for: a name, an address, words of a configuration line',
    },
  ],
  // The words as one text: SCC searches for it as typed (spaces included).
  args: z.object({ text: list({ min: 1, what: 'words' }).transform((words) => words.join(' ')) }),
  role: 'viewer',
  approval: 'never',
  scc: ['search'],
  examples: ['search WEB-01', 'search 172.16.0.10'],
  run: async (ctx, args) => ctx.scc.lookups.search(args.text),
  render: (result, args) => renderSearch(result, args.text),
});

export const rules = defineOperation({
  id: 'rules',
  words: ['rules'],
  area: 'policy',
  failure: 'Could not read the access rules',
  summary:
    'The access rules of an ASA in order, with shadowed and duplicate rules flagged and what causes them',
  params: [
    ASA_PARAM,
    {
      name: 'query',
      kind: 'query',
      optional: true,
      description: 'text in the rule’s configuration line, or a Lucene query with field:value',
    },
    OFFSET,
  ],
  args: z.object({ asa: text(), query: optionalText(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDevices', 'getDevice', 'listAccessGroups', 'listAccessRules'],
  examples: ['rules asa-hq-01', 'rules asa-hq-01 WEB-01', 'rules asa-hq-01 ruleAction:DENY'],
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.asa, ASA_RULES);
    const asked = { offset: args.offset, limit: PAGE_SIZE };
    const [groups, page] = await Promise.all([
      accessGroupsOf(ctx, device),
      ctx.scc.lookups.accessRules({ q: rulesQuery(device.uid, args.query), ...asked }),
    ]);
    return {
      device: device.name,
      rules: inOrder(page.items ?? [], groups),
      groups,
      page: pageInfo(page, asked),
    };
  },
  render: (result, args, meta) =>
    renderRules(result.device, result.rules, result.groups, result.page, args.query, meta),
});

/** The rule a line number or UUID names on the device; a UserError says why none. */
export async function ruleOf(
  ctx: OperationContext,
  device: { uid: string; name: string },
  typed: string,
): Promise<AccessRule> {
  if (isUuid(typed)) {
    let rule: AccessRule;
    try {
      rule = await ctx.scc.lookups.accessRule(typed);
    } catch (error) {
      if (isNotFound(error)) throw new UserError(`No access rule has the UUID ${typed}.`);
      throw error;
    }
    if (rule.entityUid !== device.uid)
      throw new UserError(
        `The access rule ${typed} is not one of ${device.name}’s: fwbot shows it only with its own ASA.`,
      );
    return rule;
  }
  if (!LINE_NUMBER.test(typed))
    throw new UserError(
      `\`rule\` must be a line number of ${device.name}’s configuration (the Line column of \`/fw rules ${device.name}\`) or a rule’s UUID.`,
    );
  const page = await ctx.scc.lookups.accessRules({
    q: `${fieldIs('entityUid', device.uid)} AND ruleConfigurationLineNumber:${Number(typed)}`,
    limit: 2,
  });
  const rule = (page.items ?? []).find((item) => item.ruleConfigurationLineNumber === Number(typed));
  if (!rule)
    throw new UserError(
      `Line ${Number(typed)} of ${device.name}’s configuration is not an access rule; \`/fw rules ${device.name}\` lists them with their lines.`,
    );
  return rule;
}

export const rulesShow = defineOperation({
  id: 'rules.show',
  words: ['rules', 'show'],
  area: 'policy',
  failure: 'Could not show the access rule',
  summary: 'One access rule of an ASA: its configuration line, access group, operands, remark and issues',
  params: [
    ASA_PARAM,
    {
      name: 'rule',
      kind: 'word',
      description: 'the rule’s line in the configuration (the Line column of `rules`), or its UUID',
    },
  ],
  args: z.object({ asa: text(), rule: text() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getDevices', 'getDevice', 'listAccessRules', 'fetchAccessRule', 'fetchAccessGroup'],
  examples: ['rules show asa-hq-01 130'],
  // The packet tracer's verdict card links the line that decided to it.
  offeredAsButton: true,
  run: async (ctx, args) => {
    const device = await resolveDevice(ctx.scc, args.asa, ASA_RULES);
    const rule = await ruleOf(ctx, device, args.rule);
    const group = await ctx.scc.lookups.accessGroup(rule.accessGroupUid).catch((error: unknown) => {
      // A rule whose group is gone still shows; the group is then said to be unknown.
      if (isNotFound(error)) return undefined;
      throw error;
    });
    return { device: device.name, rule, group: group ? accessGroupLabel(group, 0) : undefined };
  },
  render: (result) => renderRule(result.device, result.rule, result.group),
});

export const objects = defineOperation({
  id: 'objects',
  words: ['objects'],
  area: 'policy',
  failure: 'Could not list the objects',
  summary: 'SCC’s objects (networks, services, groups), searched by name or content',
  params: [
    {
      ...queryParam('object'),
      description: 'text in the object’s name, or a Lucene query on name and content (content:*10.1.*)',
    },
    OFFSET,
  ],
  args: z.object({ query: optionalText(), offset: offset() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getObjects'],
  examples: ['objects WEB', 'objects content:*172.16.*'],
  run: async (ctx, args) => {
    const asked = { offset: args.offset, limit: PAGE_SIZE };
    const q = toLucene(args.query);
    const page = await ctx.scc.lookups.objects({ ...(q ? { q } : {}), ...asked });
    return { items: page.items ?? [], page: pageInfo(page, asked) };
  },
  render: (result, args, meta) => renderObjects(result.items, result.page, args.query, meta),
});

/** The object a UUID or an exact name names; several of one name are listed and the UUID asked for. */
async function objectOf(ctx: OperationContext, typed: string): Promise<ObjectResponse> {
  if (isUuid(typed)) {
    try {
      return await ctx.scc.lookups.object(typed, '@detailed');
    } catch (error) {
      if (isNotFound(error)) throw new UserError(`No object has the UUID ${typed}.`);
      throw error;
    }
  }
  const page = await ctx.scc.lookups.objects({ q: exactLucene('name', typed), limit: 50 });
  const named = (page.items ?? []).filter((item) => item.name === typed && item.uid);
  const [only] = named;
  if (named.length === 0)
    throw new UserError(
      `No object is named “${typed}” (names are matched exactly here); \`/fw objects ${typed}\` searches names containing it.`,
    );
  if (named.length > 1 || !only?.uid) {
    const uids = named.map((item) => item.uid ?? '');
    throw new UserError(
      `${named.length} objects are named “${typed}”: ${uids.join(', ')}. Which one? Give its UUID: \`/fw objects show <uuid>\`.`,
      uids,
    );
  }
  return ctx.scc.lookups.object(only.uid, '@detailed');
}

export const objectsShow = defineOperation({
  id: 'objects.show',
  words: ['objects', 'show'],
  area: 'policy',
  failure: 'Could not show the object',
  summary: 'One object: its content, description, devices, and where it is used (rules, groups, objects)',
  params: [{ name: 'object', kind: 'word', description: 'the object’s exact name, or its UUID' }],
  args: z.object({ object: text() }),
  role: 'viewer',
  approval: 'never',
  scc: ['getObjects', 'getObject', 'getObjectUsages'],
  examples: ['objects show WEB-01'],
  run: async (ctx, args) => {
    const object = await objectOf(ctx, args.object);
    const usages: ReferenceInfo[] = object.uid ? await ctx.scc.lookups.objectUsages(object.uid) : [];
    return { object, usages };
  },
  render: (result) => renderObject(result.object, result.usages),
});

/** Search, rules and objects: this area's read operations, in the order help lists them (index.ts). */
export const LOOKUP_OPERATIONS: readonly Operation[] = [search, rules, rulesShow, objects, objectsShow];
