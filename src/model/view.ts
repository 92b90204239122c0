// The platform-neutral message model. Renderers of the catalogue produce a View, and everything up to the
// edge hands Views on (message.ts: the chat port); only at Slack's edge does `render/blocks.ts` turn one into
// Block Kit, while `render/text.ts` makes plain text for the console and CLI. Nothing here knows Slack.

/** A reference to an interactive action: which handler, and the state it needs (kept in the value). */
export interface ActionRef {
  /** Stable action id, e.g. `fw.page`, `fw.share`, `fw.approve`. */
  id: string;
  /** Opaque state carried by the button (≤ 2000 chars once encoded); nothing is kept in memory. */
  value: string;
}

export interface Confirm {
  title: string;
  text: string;
  confirm: string;
  deny: string;
  danger?: boolean;
}

export interface Button {
  label: string;
  /** A button either runs an action or opens a URL (e.g. a presigned report download). */
  action?: ActionRef;
  url?: string;
  style?: 'primary' | 'danger';
  confirm?: Confirm;
}

export interface Field {
  label: string;
  value: string;
}

export type ViewBlock =
  | { kind: 'header'; text: string }
  /** Markdown-ish text: *bold*, `code`, mentions made by userMention/channelMention (render/mrkdwn.ts); renderers escape the rest. */
  | { kind: 'text'; text: string }
  | { kind: 'fields'; fields: Field[] }
  /**
   * A table: Slack shows the first table of a message as a native table block (monospace text where it
   * cannot: modals, a second table), the console aligns columns. The first column names the row.
   */
  | {
      kind: 'table';
      columns: string[];
      rows: string[][];
      /** What the table holds, for screen readers (the view's summary when absent). */
      caption?: string;
      /** Columns (0-based) that hold numbers: Slack sorts them as numbers; text renders them as any other. */
      numeric?: number[];
    }
  /** Preformatted text (device output, JSON); too long for a message → uploaded as a file. */
  | { kind: 'code'; text: string; filename?: string; preview?: CodePreview }
  | { kind: 'context'; text: string }
  | { kind: 'actions'; buttons: Button[] }
  | { kind: 'divider' };

/**
 * What a message shows of preformatted text too long for it (beside the file that carries all of it): the
 * lines its producer picked, and what they are; without one, its first lines.
 */
export interface CodePreview {
  lines: string[];
  /** `the failover state of both units`: said under the preview. */
  what: string;
}

export interface View {
  /** Plain-text summary: notification text, screen readers, and the fallback where blocks fail. */
  summary: string;
  blocks: ViewBlock[];
  /** Read results are private by default; announcements of changes go to the channel. */
  visibility: 'ephemeral' | 'in_channel';
}

export function view(
  summary: string,
  blocks: ViewBlock[],
  visibility: View['visibility'] = 'ephemeral',
): View {
  return { summary, blocks, visibility };
}
