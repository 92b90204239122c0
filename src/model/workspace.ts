// Which Slack workspace a request, a thread or a stored record belongs to: its team, and its Enterprise
// Grid organization when it has one. Absent both, it is the home workspace's (every record made before
// fwbot served more than one workspace). Whoever posts later picks the workspace's Slack client by it.

export interface WorkspaceRef {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/** The workspace a record names, with no `undefined` members (records and job payloads spread it). */
export function workspaceOf(record: WorkspaceRef): { teamId?: string; enterpriseId?: string } {
  return {
    ...(record.teamId !== undefined ? { teamId: record.teamId } : {}),
    ...(record.enterpriseId !== undefined ? { enterpriseId: record.enterpriseId } : {}),
  };
}
