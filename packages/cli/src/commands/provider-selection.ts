import type { Provider } from '@clawsmith/providers';
import { CliError } from '../cli-errors.js';
import { EXIT_CODES } from '../exit-codes.js';

/** The model options of `chat` and `run`. */
export interface ProviderChoice {
  readonly script?: string;
  readonly provider?: 'openai' | 'anthropic';
  readonly model?: string;
}

const NO_MODEL_HINT =
  'Choose a model: --script FILE to replay scripted responses (no key needed), or --provider openai|anthropic --model NAME ' +
  'with OPENAI_API_KEY or ANTHROPIC_API_KEY set (OPENAI_BASE_URL=http://127.0.0.1:11434/v1 for a local server needs no key). ' +
  'Just looking around? Run `clawsmith demo`.';

/** A scripted provider that counts the requests it got after its last response. */
export interface ScriptProvider extends Provider {
  /** Requests answered after the script ran out (each got an empty answer). */
  readonly requestsPastEnd: number;
  /** The script's own script for the subagent delegated by `toolCallId` (`children` in the script file). */
  childProvider(toolCallId: string): Provider | undefined;
}

function countingExhaustion(
  scripted: Provider & { readonly remaining: number; childProvider(id: string): Provider | undefined },
): ScriptProvider {
  let requestsPastEnd = 0;
  return {
    name: scripted.name,
    model: scripted.model,
    ...(scripted.contextWindow !== undefined ? { contextWindow: scripted.contextWindow } : {}),
    childProvider: (toolCallId: string) => scripted.childProvider(toolCallId),
    get requestsPastEnd() {
      return requestsPastEnd;
    },
    stream(request) {
      if (scripted.remaining === 0 && request.signal?.aborted !== true) requestsPastEnd += 1;
      return scripted.stream(request);
    },
  };
}

/** Whether `provider` is a script, so a turn's last line can say when it ran out. */
export function isScriptProvider(provider: Provider): provider is ScriptProvider {
  return typeof (provider as Partial<ScriptProvider>).requestsPastEnd === 'number';
}

/**
 * The line a turn ends with when the script ran out during it (the model's later answers were
 * empty), or ''.
 */
export function scriptExhaustionNote(provider: Provider, requestsPastEndBefore: number): string {
  if (!isScriptProvider(provider) || provider.requestsPastEnd === requestsPastEndBefore) return '';
  return '; the script ran out of responses (later model answers were empty)';
}

/**
 * The provider the options ask for. The providers package (and with it the vendor SDK) is
 * imported only here. A script is read and validated at once; a missing API key fails at once
 * with `provider_missing_api_key`, naming the variable to set and pointing at `clawsmith demo`
 * and `--script`.
 */
export async function selectProvider(choice: ProviderChoice): Promise<Provider> {
  if (choice.script !== undefined && choice.provider !== undefined) {
    throw new CliError('provider_required', 'Give either --script or --provider, not both.', EXIT_CODES.usage);
  }
  if (choice.script !== undefined) {
    const { createScriptedProvider } = await import('@clawsmith/providers');
    return countingExhaustion(createScriptedProvider({ file: choice.script }));
  }
  if (choice.provider === undefined)
    throw new CliError('provider_required', `No model chosen. ${NO_MODEL_HINT}`, EXIT_CODES.usage);
  if (!choice.model) {
    const example = choice.provider === 'openai' ? 'gpt-4.1' : 'claude-sonnet-4-5';
    throw new CliError(
      'model_required',
      `--provider ${choice.provider} needs --model (for example --model ${example}, or set CLAWSMITH_MODEL).`,
      EXIT_CODES.usage,
    );
  }
  const providers = await import('@clawsmith/providers');
  return choice.provider === 'openai'
    ? providers.createOpenAIProvider({ model: choice.model })
    : providers.createAnthropicProvider({ model: choice.model });
}
