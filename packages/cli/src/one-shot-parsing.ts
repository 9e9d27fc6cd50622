import { z } from 'zod';

/**
 * Makes zod check objects by walking their schemas instead of compiling a parser per object
 * schema (`new Function`) on its first parse. Set by the commands that run once and exit
 * (`run`, `sessions`, `undo`, …), before their modules build any schema: such a process parses
 * each schema a few times to a few thousand times, far too few for a compiled parser to repay
 * its compiling. `chat`, `web`, `mcp serve` and `acp` keep compiled parsers: they live long.
 *
 * `z.config` is global to the zod the bundle holds; only this executable's entry sets it, never
 * a library package.
 */
export function useInterpretedParsers(): void {
  z.config({ jitless: true });
}
