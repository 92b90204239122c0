// What the fuzz drill feeds fwbot: /fw text (free text, command-shaped word salads, long and exotic
// strings, tokens and mentions) and modal submissions (valid and garbage metadata, field values of the
// right and wrong kinds, missing and extra fields), generated with fast-check from a fixed seed.
import fc from 'fast-check';
import type { Catalogue } from '../../src/catalogue/index.js';
import type { ModalField, Operation } from '../../src/catalogue/operation.js';
import { DEVICE_NAMES } from '../../src/simulator/index.js';
import { encodeMetadata } from '../../src/slack/views/metadata.js';
import { FIELD_ACTION, fieldBlockId, MODAL_CALLBACK } from '../../src/slack/views/modal.js';

export interface ModalInput {
  op: Operation | undefined;
  metadata: string;
  values: Record<string, Record<string, Record<string, unknown>>>;
}

const EXOTIC = [
  '--profile',
  'default',
  '--profile',
  'nope',
  '--json',
  '--offset',
  '"',
  "'",
  '*',
  '<!channel>',
  '<@U0X>',
  'xoxb-1234-5678-abcdefghij',
  'name:"a b"',
  '0',
  '-1',
  '99999999999',
  '🔥',
  '\u0000',
  '\u202e',
  '&lt;',
];

export function textInputs(catalogue: Catalogue): fc.Arbitrary<string> {
  const words = [...new Set(catalogue.operations.flatMap((op) => op.words))];
  const names = [
    ...Object.values(DEVICE_NAMES),
    'globex-apj',
    'northwind-us',
    'printers',
    'iot',
    'GigabitEthernet0/1',
  ];
  const token = fc.oneof(
    fc.constantFrom(...words),
    fc.constantFrom(...names),
    fc.constantFrom(...EXOTIC),
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'grapheme', maxLength: 24 }),
    fc.integer().map(String),
    fc.uuid(),
  );
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.constantFrom(...catalogue.operations), fc.array(token, { maxLength: 6 }))
        .map(([op, rest]) => [...op.words, ...rest].join(' ')),
    },
    { weight: 3, arbitrary: fc.array(token, { maxLength: 8 }).map((tokens) => tokens.join(' ')) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 3000, maxLength: 6000 }) },
  );
}

function stateOf(field: ModalField | undefined): fc.Arbitrary<Record<string, unknown>> {
  const anyText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(...EXOTIC),
    fc.string({ maxLength: 3000 }),
  );
  const option = (value: fc.Arbitrary<string>) =>
    value.map((v) => ({ text: { type: 'plain_text', text: v.slice(0, 75) }, value: v }));
  const known = fc.constantFrom(...(field?.options?.map((o) => o.value) ?? ['x']));
  return fc.oneof(
    anyText.map((value) => ({ type: 'plain_text_input', value })),
    option(fc.oneof(known, anyText)).map((selected_option) => ({ type: 'static_select', selected_option })),
    option(fc.oneof(known, fc.constantFrom(...Object.values(DEVICE_NAMES)), anyText)).map(
      (selected_option) => ({ type: 'external_select', selected_option }),
    ),
    fc
      .array(option(fc.oneof(known, anyText)), { maxLength: 4 })
      .map((selected_options) => ({ type: 'multi_static_select', selected_options })),
    fc.boolean().map((on) => ({
      type: 'checkboxes',
      selected_options: on ? [{ text: { type: 'plain_text', text: 'yes' }, value: 'true' }] : [],
    })),
    fc.constant({ type: 'plain_text_input', value: null }),
  );
}

export function modalInputs(catalogue: Catalogue, responseUrl: string): fc.Arbitrary<ModalInput> {
  const withForms = catalogue.operations.filter((op) => op.modal !== undefined);
  return fc.constantFrom(...withForms).chain((op) => {
    const fields = Array.isArray(op.modal?.fields) ? (op.modal?.fields as readonly ModalField[]) : [];
    const names = [...new Set([...fields.map((f) => f.name), ...op.params.map((p) => p.name), 'unknown'])];
    const metadata = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constant(
          encodeMetadata({
            operationId: op.id,
            channelId: 'C0FUZZ01',
            profileOverride: undefined,
            prefilled: {},
            responseUrl,
          }),
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
      {
        weight: 1,
        arbitrary: fc.constant(
          encodeMetadata({
            operationId: 'no.such.op',
            channelId: 'C0FUZZ01',
            profileOverride: undefined,
            prefilled: {},
            responseUrl,
          }),
        ),
      },
    );
    const values = fc
      .uniqueArray(fc.constantFrom(...names), { maxLength: names.length })
      .chain((chosen) =>
        fc.tuple(
          ...chosen.map((name) =>
            stateOf(fields.find((f) => f.name === name)).map((state) => [name, state] as const),
          ),
        ),
      )
      .map((entries) =>
        Object.fromEntries(entries.map(([name, state]) => [fieldBlockId(name), { [FIELD_ACTION]: state }])),
      );
    return fc.record({ op: fc.constant(op), metadata, values });
  });
}

export function viewSubmission(input: ModalInput, trigger: string, userId: string): Record<string, unknown> {
  return {
    type: 'view_submission',
    user: { id: userId },
    team: { id: 'T0FAKE' },
    api_app_id: 'A0FWBOT',
    trigger_id: trigger,
    view: {
      id: 'V0FUZZ',
      type: 'modal',
      callback_id: MODAL_CALLBACK,
      private_metadata: input.metadata,
      hash: 'h',
      state: { values: input.values },
    },
  };
}
