// The one list of reference cuts and the one merge (scripts/scc-reference.ts): a cut is read whole or only
// for the operations it names, with just the components those reach, and the client's cuts are cuts of the
// vendor commit the drift check compares against.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  allCutPaths,
  CLIENT_CUTS,
  clientSources,
  ReferenceFileError,
  readSpec,
} from '../../scripts/scc-reference.js';

const dir = mkdtempSync(join(tmpdir(), 'fwbot-cuts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = (schema: string) => ({
  200: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
  404: { $ref: '#/components/responses/NotFound' },
});
const cut = join(dir, 'scc-openapi-widgets.yaml');
writeFileSync(
  cut,
  stringify({
    openapi: '3.0.1',
    paths: {
      '/v1/widgets': {
        get: { operationId: 'getWidgets', responses: ok('WidgetPage') },
        post: { operationId: 'createWidget', responses: ok('Widget') },
      },
      '/v1/gadgets': { get: { operationId: 'getGadgets', responses: ok('Gadget') } },
    },
    components: {
      schemas: {
        WidgetPage: {
          type: 'object',
          properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Widget' } } },
        },
        Widget: { type: 'object', properties: { name: { type: 'string' } } },
        Gadget: { type: 'object', properties: { size: { type: 'integer' } } },
        Error: { type: 'object', properties: { errorMsg: { type: 'string' } } },
      },
      responses: {
        NotFound: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    },
  }),
);

describe('the reference cuts', () => {
  it('reads a cut whole, or only the operations named with the components they reach', () => {
    const whole = readSpec([{ path: cut }]);
    expect(Object.keys(whole.components.schemas).sort()).toEqual(['Error', 'Gadget', 'Widget', 'WidgetPage']);

    const some = readSpec([{ path: cut, only: ['getWidgets'] }]);
    expect(some.paths).toEqual({ '/v1/widgets': { get: whole.paths['/v1/widgets']?.get } });
    expect(Object.keys(some.components.schemas).sort()).toEqual(['Error', 'Widget', 'WidgetPage']);
    expect(Object.keys(some.components.responses)).toEqual(['NotFound']);
  });

  it('refuses to name an operation the cut does not have', () => {
    expect(() => readSpec([{ path: cut, only: ['getWidgets', 'getSprockets'] }])).toThrow(
      new ReferenceFileError(`${cut} has no operation getSprockets`),
    );
  });

  it.skipIf(allCutPaths() === undefined || process.env.SCC_OPENAPI !== undefined)(
    'generates the client from cuts of the vendor commit the drift check compares with',
    () => {
      const all = (allCutPaths() ?? []).map((path) => basename(path));
      expect(all).toEqual(expect.arrayContaining(CLIENT_CUTS.map((c) => c.file)));
      expect(clientSources().map((source) => basename(source.path))).toEqual(CLIENT_CUTS.map((c) => c.file));
    },
  );
});
