// Types derived from the generated operation table: what each SCC operation takes and returns.
// The generic `SccClient.call` and every area module are typed through these, so a field renamed in the
// reference is a compile error everywhere it is used.
import { z } from 'zod';
import * as Model from './generated/models.js';
import { type SccOperationId, sccOperations } from './generated/operations.js';

export type { SccOperationId };
export { sccOperations };

type Ops = typeof sccOperations;

/**
 * Gateway operations have examples but no schema in the reference; their bodies are CommandResponse
 * (the reference's own schema for gateway answers), so the client parses them with it.
 */
export interface SchemaOverrides {
  executeDeviceCommand: { 200: typeof Model.CommandResponse };
  getDeviceCommandResponse: { 200: typeof Model.CommandResponse };
  getChangesDeployedInDeploymentRun: { 200: typeof DeployedChanges };
  getObjectUsages: { 200: typeof ObjectUsages };
}

/**
 * The reference declares this list's items as `oneOf` two overlapping objects beside a stray `type: string`
 * (nothing could match it); items are ASA or FTD change items, told apart by `deploymentType`.
 */
export const DeployedChanges = z.array(z.union([Model.AsaChangeItemDto, Model.FtdChangeItemDto]));

/**
 * The reference declares this answer as an inline array of ReferenceInfo, which the generator leaves
 * untyped (a null model would drop the body): the rules, groups and objects that use the object.
 */
export const ObjectUsages = z.array(Model.ReferenceInfo);

type ResponseTable<Id extends SccOperationId> = Id extends keyof SchemaOverrides
  ? SchemaOverrides[Id]
  : Ops[Id]['responses'];

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The success statuses the reference declares for an operation (e.g. 200 | 202, 201, 204). */
export type SuccessStatus<Id extends SccOperationId> = keyof ResponseTable<Id> & number;

/** A success response: the status and the body parsed with that status's schema. */
export type SccResponse<Id extends SccOperationId> = {
  [S in SuccessStatus<Id>]: { status: S; data: Parsed<ResponseTable<Id>[S]>; headers: Headers };
}[SuccessStatus<Id>];

type PathParamNames<Id extends SccOperationId> = Ops[Id]['pathParams'][number];
type QueryParam<Id extends SccOperationId> = Ops[Id]['query'][number];

export type PathParams<Id extends SccOperationId> = { [K in PathParamNames<Id>]: string };

/** Query values are given typed (numbers, booleans, arrays) and encoded as the reference says. */
export type QueryParams<Id extends SccOperationId> = {
  [P in QueryParam<Id> as P['name']]?: P['array'] extends true
    ? readonly string[]
    : string | number | boolean | undefined;
};

type BodySchema<Id extends SccOperationId> = Ops[Id]['body'];
export type RequestBody<Id extends SccOperationId> =
  BodySchema<Id> extends z.ZodType ? z.input<BodySchema<Id>> : never;

/** Arguments of `call(id, params)`: path parameters and a body are required exactly where the operation has them. */
export type CallParams<Id extends SccOperationId> = (PathParamNames<Id> extends never
  ? { path?: undefined }
  : { path: PathParams<Id> }) &
  (BodySchema<Id> extends z.ZodType ? { body: RequestBody<Id> } : { body?: undefined }) & {
    query?: QueryParams<Id>;
    /** Overrides the operation's timeout for this call only. */
    timeoutMs?: number;
    signal?: AbortSignal;
  };
