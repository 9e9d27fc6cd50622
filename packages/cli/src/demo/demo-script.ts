import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ScriptedResponse } from '@clawsmith/providers';
import { z } from 'zod';
import { cliPackageFile } from '../package-files.js';

const demoScriptSchema = z.strictObject({
  about: z.string(),
  workspace: z.record(z.string(), z.string()),
  turns: z
    .array(z.strictObject({ prompt: z.string().min(1), note: z.string(), responses: z.array(z.unknown()).min(1) }))
    .min(1),
  undo: z.strictObject({ turn: z.number().int().min(1), diffPath: z.string() }),
});

/** The demo's script: the starting workspace, the turns with their scripted model responses, and the undo to show. */
export interface DemoScript {
  readonly about: string;
  /** Path → text of the files the temporary workspace starts with. */
  readonly workspace: Readonly<Record<string, string>>;
  readonly turns: readonly {
    readonly prompt: string;
    readonly note: string;
    readonly responses: readonly ScriptedResponse[];
  }[];
  /** Which turn (1-based) to undo at the end, and the file whose diff to show first. */
  readonly undo: { readonly turn: number; readonly diffPath: string };
}

/** Where the demo script ships: `src/demo/demo-script.json` of this package (published with it). */
export const DEMO_SCRIPT_URL = pathToFileURL(cliPackageFile('src/demo/demo-script.json'));

/** Reads and checks the shipped demo script; each turn's responses are checked as a model script. */
export async function loadDemoScript(url: URL = DEMO_SCRIPT_URL): Promise<DemoScript> {
  const { validateModelScript } = await import('@clawsmith/providers');
  const value = demoScriptSchema.parse(JSON.parse(readFileSync(url, 'utf8')));
  const turns = value.turns.map((turn, index) => ({
    prompt: turn.prompt,
    note: turn.note,
    responses: validateModelScript({ responses: turn.responses }, `demo-script.json turn ${index + 1}`).responses,
  }));
  if (value.undo.turn > turns.length)
    throw new Error(`demo-script.json: undo.turn ${value.undo.turn} is past the last turn (${turns.length}).`);
  return { about: value.about, workspace: value.workspace, turns, undo: value.undo };
}
