// Which zod model the client parses a response with, by operation and status: the generated table, plus the
// operations the reference gives no usable schema for (SchemaOverrides: the two gateway operations, the
// changes deployed in a run, an object's usages), plus SCC's error
// bodies. The contract test checks the reference's examples against exactly these choices.
import type { z } from 'zod';
import * as Model from './generated/models.js';
import {
  DeployedChanges,
  ObjectUsages,
  type SccOperationId,
  type SchemaOverrides,
} from './operationTypes.js';
import { operationRow } from './request.js';

const overrides: { [Id in keyof SchemaOverrides]: SchemaOverrides[Id] } = {
  executeDeviceCommand: { 200: Model.CommandResponse },
  getDeviceCommandResponse: { 200: Model.CommandResponse },
  getChangesDeployedInDeploymentRun: { 200: DeployedChanges },
  getObjectUsages: { 200: ObjectUsages },
};

/** The success statuses of an operation and their models (null: no body, e.g. 204). */
export function successResponses(operationId: SccOperationId): Readonly<Record<number, z.ZodType | null>> {
  return operationId in overrides
    ? overrides[operationId as keyof SchemaOverrides]
    : operationRow(operationId).responses;
}

/**
 * The model for one status: a success model (null when it has no body), SCC's error body for 4xx/5xx, or
 * undefined for a success status the reference does not declare.
 */
export function responseSchema(operationId: SccOperationId, status: number): z.ZodType | null | undefined {
  if (status >= 400) return errorBodySchema(status);
  const table = successResponses(operationId);
  return status in table ? (table[status] ?? null) : undefined;
}

/** 401 comes from the authentication gateway (AuthenticationError); every other error is CommonApiError. */
export function errorBodySchema(status: number): z.ZodType {
  return status === 401 ? Model.AuthenticationError : Model.CommonApiError;
}
