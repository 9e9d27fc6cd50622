// The fixed choices of some flags, in a module of their own so that both the command tree (which
// must stay light for `--help`) and the option schemas of the commands read the same lists.

/** The permission modes `--permission-mode` accepts (core's `PERMISSION_MODES`, repeated so help stays light). */
export const CLI_PERMISSION_MODES = ['default', 'accept-edits', 'read-only', 'full-auto'] as const;
/** The providers `--provider` accepts. */
export const CLI_PROVIDERS = ['openai', 'anthropic'] as const;
