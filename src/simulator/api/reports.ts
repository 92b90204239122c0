// Event-search reports: the list SCC returns, each finished report with a presigned download URL, and
// the download itself, which the simulator serves like S3 would (signature and expiry checked, CSV body).
import type { Handler, OperationHandlers } from '../http/context.js';
import { type FieldTable, listPage } from '../lists/listEngine.js';
import { SeededRandom, seededSignature } from '../random.js';
import { iso, type SimRuntime } from '../runtime.js';
import type { ReportRecord } from '../state/model.js';

export const DOWNLOAD_URL_TTL_S = 3600;
const DOWNLOAD_PREFIX = '/_sim/downloads/';

const reportFields: FieldTable<ReportRecord> = {
  uid: { kind: 'string', get: (r) => r.uid },
  name: { kind: 'string', get: (r) => r.name },
  query: { kind: 'string', get: (r) => r.query },
  status: { kind: 'string', get: (r) => r.status },
  createdBy: { kind: 'string', get: (r) => r.createdBy },
  createdDate: { kind: 'date', get: (r) => r.createdDate },
  completedDate: { kind: 'date', get: (r) => r.completedDate },
  rowCount: { kind: 'number', get: (r) => r.rowCount },
};

const amzDate = (t: number) =>
  iso(t)
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function presign(sim: SimRuntime, report: ReportRecord): { url: string; expiresAt: string } {
  const now = sim.clock.now();
  const date = amzDate(now);
  const signature = seededSignature(sim.state.seed, `${report.uid}:${date}:${DOWNLOAD_URL_TTL_S}`);
  const query = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `SIMULATOR/${date.slice(0, 8)}/us-east-1/s3/aws4_request`,
    'X-Amz-Date': date,
    'X-Amz-Expires': String(DOWNLOAD_URL_TTL_S),
    'X-Amz-SignedHeaders': 'host',
    'X-Amz-Signature': signature,
  });
  return {
    url: `${sim.baseUrl}${DOWNLOAD_PREFIX}${report.uid}/${report.name}.csv?${query}`,
    expiresAt: iso(now + sim.clock.span(DOWNLOAD_URL_TTL_S * 1000)),
  };
}

function reportDto(sim: SimRuntime, report: ReportRecord): Record<string, unknown> {
  const link = report.status === 'COMPLETED' ? presign(sim, report) : undefined;
  return {
    uid: report.uid,
    name: report.name,
    query: report.query,
    status: report.status,
    createdBy: report.createdBy,
    createdDate: iso(report.createdDate),
    ...(report.completedDate === undefined ? {} : { completedDate: iso(report.completedDate) }),
    startDate: iso(report.startDate),
    endDate: iso(report.endDate),
    rowCount: report.rowCount,
    fileFormat: 'CSV',
    ...(link === undefined ? {} : { downloadUrl: link.url, downloadUrlExpiresAt: link.expiresAt }),
  };
}

export const getSearchReports: Handler = (ctx) => {
  const reports = [...ctx.state.reports.values()]
    .filter((r) => r.tenantUid === ctx.principal.tenant.uid)
    .sort((a, b) => b.createdDate - a.createdDate);
  const page = listPage(ctx.query, reports, { fields: reportFields, search: true, sort: true });
  return { status: 200, body: { ...page, items: page.items.map((r) => reportDto(ctx.sim, r)) } };
};

export interface DownloadResult {
  status: number;
  contentType: string;
  body: string;
  fileName?: string;
}

const s3Error = (status: number, code: string, message: string): DownloadResult => ({
  status,
  contentType: 'application/xml',
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`,
});

/** Serves /_sim/downloads/<uid>/<name>.csv?X-Amz-…: checks the signature and expiry like S3. */
export function downloadReport(sim: SimRuntime, pathname: string, query: URLSearchParams): DownloadResult {
  const uid = pathname.slice(DOWNLOAD_PREFIX.length).split('/')[0] ?? '';
  const report = sim.state.reports.get(uid);
  if (report === undefined || report.status !== 'COMPLETED')
    return s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
  const date = query.get('X-Amz-Date') ?? '';
  const expires = Number(query.get('X-Amz-Expires') ?? 'NaN');
  const expected = seededSignature(sim.state.seed, `${uid}:${date}:${expires}`);
  if (query.get('X-Amz-Signature') !== expected) {
    return s3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  const signedAt = Date.parse(
    date.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (!(sim.clock.now() < signedAt + sim.clock.span(expires * 1000)))
    return s3Error(403, 'AccessDenied', 'Request has expired');
  return {
    status: 200,
    contentType: 'text/csv',
    body: reportCsv(sim.state.seed, report),
    fileName: `${report.name}.csv`,
  };
}

function reportCsv(seed: string, report: ReportRecord): string {
  const rng = new SeededRandom(`report:${seed}:${report.uid}`);
  const lines = ['timestamp,deviceName,action,sourceIp,destinationIp,destinationPort,protocol'];
  const span = report.endDate - report.startDate;
  for (let i = 0; i < report.rowCount; i += 1) {
    const at = report.startDate + Math.floor((span * i) / Math.max(1, report.rowCount));
    lines.push(
      [
        iso(at),
        rng.pick(['asa-hq-01', 'asa-dc-03', 'ftd-edge-01', 'ftd-edge-02']),
        rng.pick(['ALLOW', 'BLOCK', 'TRUST']),
        `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
        `203.0.113.${rng.int(1, 254)}`,
        String(rng.pick([22, 53, 80, 443, 3389, 8443])),
        rng.pick(['TCP', 'UDP']),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Event reports: this file's handlers, which the table (operations.ts) spreads. */
export const reportHandlers = {
  getSearchReports,
} satisfies Partial<OperationHandlers>;
