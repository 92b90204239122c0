// Slack's rules for table blocks, static selects and message size, as plain checks that return what Slack
// would refuse (empty when it would accept). Written from Slack's reference pages, not from the renderer:
// the fake Web API (fakeSlack.ts) answers `invalid_blocks` (`invalid_arguments` for a select) with these,
// and blockLimits.ts asserts them.
// Sources (docs.slack.dev, read 2026-11-25): /reference/block-kit/blocks (tables in messages and Home tabs,
// not modals; 50 blocks per message, 100 in modals and Home), /reference/block-kit/blocks/table-block,
// /reference/block-kit/blocks/data-table-block; one table per message (`only_one_table_allowed`).
// Read 2026-11-26: /reference/block-kit/block-elements/select-menu-element and multi-select-menu-element
// (a static select needs `options` or `option_groups`, at most 100 options), /reference/block-kit/
// composition-objects/option-object (an option's `value` identifies it: unique within its menu).

export const TABLE_RULES = {
  messageBlocks: 50,
  viewBlocks: 100,
  tableRows: 100,
  /** data_table: the header and 1 to 100 rows. */
  dataTableRows: { min: 2, max: 101 },
  columns: 20,
  columnSettings: 20,
  cellChars: 10_000,
  pageSize: { min: 1, max: 100 },
} as const;

export const TABLE_FAMILY = new Set(['table', 'data_table']);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The characters of a rich_text cell: every `text` inside it. */
function richChars(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((sum: number, child) => sum + richChars(child), 0);
  if (!isObject(node)) return 0;
  const own = typeof node.text === 'string' ? node.text.length : 0;
  return own + richChars(node.elements);
}

/** Checks one cell; returns its characters (what counts toward the 10,000) and adds any problem found. */
function checkCell(cell: unknown, where: string, header: boolean, errors: string[]): number {
  if (!isObject(cell)) {
    errors.push(`${where}: a cell must be an object`);
    return 0;
  }
  switch (cell.type) {
    case 'raw_text':
      if (typeof cell.text !== 'string' || cell.text.length < 1)
        errors.push(`${where}: raw_text needs a text of at least 1 character`);
      return typeof cell.text === 'string' ? cell.text.length : 0;
    case 'raw_number':
      if (typeof cell.value !== 'number' || !Number.isFinite(cell.value))
        errors.push(`${where}: raw_number needs a numeric value`);
      if (typeof cell.text !== 'string' || cell.text.length < 1)
        errors.push(`${where}: raw_number needs a text of at least 1 character`);
      return typeof cell.text === 'string' ? cell.text.length : 0;
    case 'rich_text':
      if (header) errors.push(`${where}: a data_table header cell may not be rich_text`);
      if (!Array.isArray(cell.elements)) errors.push(`${where}: rich_text needs elements`);
      return richChars(cell.elements);
    default:
      errors.push(`${where}: unknown cell type ${String(cell.type)}`);
      return 0;
  }
}

function checkRows(rows: unknown, where: string, dataTable: boolean, errors: string[]): number {
  if (!Array.isArray(rows)) {
    errors.push(`${where}.rows: must be an array`);
    return 0;
  }
  const { min, max } = dataTable ? TABLE_RULES.dataTableRows : { min: 1, max: TABLE_RULES.tableRows };
  if (rows.length < min || rows.length > max)
    errors.push(`${where}.rows: ${rows.length} rows (must be ${min} to ${max})`);
  let chars = 0;
  const width = Array.isArray(rows[0]) ? rows[0].length : 0;
  rows.forEach((row: unknown, r) => {
    if (!Array.isArray(row)) {
      errors.push(`${where}.rows[${r}]: must be an array of cells`);
      return;
    }
    if (row.length < 1 || row.length > TABLE_RULES.columns)
      errors.push(`${where}.rows[${r}]: ${row.length} cells (must be 1 to ${TABLE_RULES.columns})`);
    if (dataTable && row.length !== width)
      errors.push(`${where}.rows[${r}]: ${row.length} cells where the header has ${width}`);
    row.forEach((cell: unknown, c) => {
      chars += checkCell(cell, `${where}.rows[${r}][${c}]`, dataTable && r === 0, errors);
    });
  });
  return chars;
}

/** Checks one table-family block; returns the characters its cells (and caption) hold. */
function checkTable(block: Json, where: string, errors: string[]): number {
  let chars: number;
  if (block.type === 'data_table') {
    if (typeof block.caption !== 'string' || block.caption.length === 0)
      errors.push(`${where}.caption: required`);
    chars = checkRows(block.rows, where, true, errors);
    chars += typeof block.caption === 'string' ? block.caption.length : 0;
    const pageSize = block.page_size;
    if (
      pageSize !== undefined &&
      (!Number.isInteger(pageSize) ||
        (pageSize as number) < TABLE_RULES.pageSize.min ||
        (pageSize as number) > TABLE_RULES.pageSize.max)
    )
      errors.push(`${where}.page_size: ${String(pageSize)} (must be 1 to 100)`);
    const columns = Array.isArray(block.rows) && Array.isArray(block.rows[0]) ? block.rows[0].length : 0;
    const header = block.row_header_column_index;
    if (
      header !== undefined &&
      (!Number.isInteger(header) || (header as number) < 0 || (header as number) >= columns)
    )
      errors.push(`${where}.row_header_column_index: ${String(header)} (not a column)`);
  } else {
    chars = checkRows(block.rows, where, false, errors);
    const settings = block.column_settings;
    if (settings !== undefined && (!Array.isArray(settings) || settings.length > TABLE_RULES.columnSettings))
      errors.push(`${where}.column_settings: at most ${TABLE_RULES.columnSettings} items`);
  }
  if (chars > TABLE_RULES.cellChars)
    errors.push(`${where}: ${chars} characters across its cells (at most ${TABLE_RULES.cellChars})`);
  return chars;
}

/** Static selects list their options in the payload; external ones get theirs from the app. */
const STATIC_SELECTS = new Set(['static_select', 'multi_static_select']);
export const SELECT_RULES = { maxOptions: 100 } as const;

/** The elements a block holds, by where: an input's element, a section's accessory, an actions block's. */
function elementsOf(block: Json): [where: string, element: unknown][] {
  const listed: unknown[] = Array.isArray(block.elements) ? block.elements : [];
  return [
    ['element', block.element],
    ['accessory', block.accessory],
    ...listed.map((element, k): [string, unknown] => [`elements[${k}]`, element]),
  ];
}

/** Checks one static select: at least one option, at most 100, each value once in the menu. */
function checkSelect(element: Json, where: string, errors: string[]): void {
  const groups = Array.isArray(element.option_groups) ? element.option_groups : undefined;
  const options: unknown[] = groups
    ? groups.flatMap((group: unknown) =>
        isObject(group) && Array.isArray(group.options) ? group.options : [],
      )
    : Array.isArray(element.options)
      ? element.options
      : [];
  if (options.length === 0) errors.push(`${where}: a ${String(element.type)} needs at least one option`);
  if (options.length > SELECT_RULES.maxOptions)
    errors.push(
      `${where}: ${options.length} options in a ${String(element.type)} (at most ${SELECT_RULES.maxOptions})`,
    );
  const values = options.map((option) => (isObject(option) ? option.value : undefined));
  const repeated = values.filter((value, i) => values.indexOf(value) !== i);
  if (repeated.length > 0)
    errors.push(
      `${where}: option values repeat in a ${String(element.type)}: ${[...new Set(repeated)].join(', ')}`,
    );
}

/** Problems of the static selects in some blocks (forms, and any message that carries a menu). */
function selectProblems(blocks: readonly unknown[]): string[] {
  const errors: string[] = [];
  blocks.forEach((block: unknown, i) => {
    if (!isObject(block)) return;
    for (const [where, element] of elementsOf(block)) {
      if (isObject(element) && typeof element.type === 'string' && STATIC_SELECTS.has(element.type))
        checkSelect(element, `blocks[${i}].${where}`, errors);
    }
  });
  return errors;
}

/**
 * What Slack would refuse in the blocks of a message (`surface: 'message'`) or a view (`modal`, `home`).
 * The one-table rule reads `only_one_table_allowed`, as Slack names it.
 */
export function blockKitProblems(blocks: unknown, surface: 'message' | 'modal' | 'home'): string[] {
  if (blocks === undefined) return [];
  if (!Array.isArray(blocks)) return ['blocks: must be an array'];
  const errors: string[] = [];
  const max = surface === 'message' ? TABLE_RULES.messageBlocks : TABLE_RULES.viewBlocks;
  if (blocks.length > max) errors.push(`blocks: ${blocks.length} blocks (at most ${max})`);
  let tables = 0;
  let chars = 0;
  blocks.forEach((block: unknown, i) => {
    const where = `blocks[${i}]`;
    if (!isObject(block) || typeof block.type !== 'string') {
      errors.push(`${where}: a block needs a type`);
      return;
    }
    if (!TABLE_FAMILY.has(block.type)) return;
    if (surface === 'modal') errors.push(`${where}: ${block.type} is not available in modals`);
    tables += 1;
    chars += checkTable(block, where, errors);
  });
  errors.push(...selectProblems(blocks));
  if (surface === 'message' && tables > 1) errors.push('only_one_table_allowed');
  if (surface === 'message' && tables > 1 && chars > TABLE_RULES.cellChars)
    errors.push(`message: ${chars} characters across its table cells (at most ${TABLE_RULES.cellChars})`);
  return errors;
}

/** Slack's error code for a refused message: the one-table rule comes back as `invalid_attachments`. */
export function refusalCode(problems: readonly string[]): string {
  if (problems.includes('only_one_table_allowed')) return 'invalid_attachments';
  // A view with a menu Slack cannot show is refused as a bad argument (views.open / views.update).
  if (problems.some((problem) => /_select/.test(problem))) return 'invalid_arguments';
  return 'invalid_blocks';
}
