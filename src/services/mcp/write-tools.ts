import type { ToolSpec } from './session.js';

/** The write tools (`--write`): plan → apply. */
export const WRITE_TOOLS: ToolSpec[] = [];
