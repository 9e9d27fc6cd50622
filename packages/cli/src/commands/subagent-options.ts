import type { Provider } from '@clawsmith/providers';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';
import { selectProvider, type ProviderChoice } from './provider-selection.js';

/** `--subagent-model` and `--subagent-max-steps` as commander gives them. */
export interface SubagentChoice extends ProviderChoice {
  readonly subagentModel?: string;
  readonly subagentMaxSteps?: string;
}

/** What the runtime's delegation gets from the command line. */
export interface SubagentSettings {
  /** The children's model; undefined: the run's own. */
  readonly provider?: Provider;
  /** Model requests of a child's turn; undefined: core's default (20). */
  readonly maxSteps?: number;
}

/** Largest `--subagent-max-steps`. */
const MAX_CHILD_STEPS = 1_000;

/**
 * The subagents' model and step limit: `--subagent-model NAME` is a model of the same
 * `--provider` (a script scripts its children in its `children` entries instead, so the two do
 * not go together); `--subagent-max-steps N` is a whole number from 1 to 1,000. Anything else
 * is `invalid_subagent_option` (exit 2). Like `--model`, the name is not checked here: a model the
 * provider does not know fails the child's first request, and the delegating call's result
 * carries the provider's code (`provider_bad_request`).
 */
export async function selectSubagents(choice: SubagentChoice): Promise<SubagentSettings> {
  let maxSteps: number | undefined;
  if (choice.subagentMaxSteps !== undefined) {
    const text = choice.subagentMaxSteps.trim();
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_CHILD_STEPS)
      throw new CliError(
        'invalid_subagent_option',
        `--subagent-max-steps takes a whole number from 1 to ${MAX_CHILD_STEPS}, not ${JSON.stringify(choice.subagentMaxSteps)}.`,
        EXIT_CODES.usage,
      );
    maxSteps = Number(text);
  }
  if (choice.subagentModel === undefined) return maxSteps === undefined ? {} : { maxSteps };
  if (choice.script !== undefined || choice.provider === undefined)
    throw new CliError(
      'invalid_subagent_option',
      '--subagent-model names a model of --provider; with --script, script the subagents in the script\'s "children" instead.',
      EXIT_CODES.usage,
    );
  if (choice.subagentModel.trim() === '')
    throw new CliError(
      'invalid_subagent_option',
      `--subagent-model needs a model name of --provider ${choice.provider} (or leave it out: the subagents then use --model).`,
      EXIT_CODES.usage,
    );
  const provider = await selectProvider({ provider: choice.provider, model: choice.subagentModel });
  return { provider, ...(maxSteps === undefined ? {} : { maxSteps }) };
}
