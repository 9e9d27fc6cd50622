import { z } from 'zod';

/** The hook events clawsmith runs. Others of the familiar shape are refused with a clear error. */
export const SETTINGS_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;

/** A hook event of a settings file. */
export type SettingsHookEvent = (typeof SETTINGS_HOOK_EVENTS)[number];

const commandHandlerSchema = z
  .object({
    type: z.literal('command'),
    command: z.string().min(1),
    /** Seconds; default 60. */
    timeout: z.number().positive().max(3600).optional(),
  })
  .strict();

const matcherGroupSchema = z
  .object({
    /**
     * A tool name, an alias (`Bash`), `A|B`, a regular expression, or `*`/absent for every tool;
     * for SessionStart the source, SessionEnd the reason, PreCompact the trigger, Notification the type.
     */
    matcher: z.string().optional(),
    hooks: z.array(commandHandlerSchema).min(1),
  })
  .strict();

/** A settings file as a person writes it. */
export const settingsFileSchema = z
  .object({
    $schema: z.string().optional(),
    /**
     * Whether hook commands run in the command sandbox (default true). Only the person's own
     * settings (the user file, `--settings FILE`) can turn it off; a project file never can.
     */
    sandboxHooks: z.boolean().optional(),
    permissions: z
      .object({
        allow: z.array(z.string()).optional(),
        ask: z.array(z.string()).optional(),
        deny: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    hooks: z
      .object(Object.fromEntries(SETTINGS_HOOK_EVENTS.map((event) => [event, z.array(matcherGroupSchema).optional()])))
      .strict()
      .optional(),
  })
  .strict();

/** A settings file as a person writes it. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;

/** One matcher group of a hook event. */
export type SettingsMatcherGroup = z.infer<typeof matcherGroupSchema>;
