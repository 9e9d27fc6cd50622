// The model-facing schema of a read_file-like tool, generated the way core generates them.
import { toModelToolSchema } from '@clawsmith/tool-protocol';
import { z } from 'zod';

export const readFileSchema = toModelToolSchema({
  name: 'read_file',
  description: 'Read a file',
  inputSchema: z.object({ path: z.string() }),
});
