import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { ModelToolCall } from './model-message.js';
import type { ModelRequest, ModelStreamEvent, Provider } from './model-stream.js';
import { type ModelScript, ModelScriptError, parseModelScript, validateModelScript } from './model-script.js';

/** Where a scripted provider's responses come from: a JSON file, or a script object. */
export type ScriptedProviderOptions = { readonly file: string } | { readonly script: ModelScript };

/** A provider that replays a script; `remaining` tells tests how many responses are left. */
export interface ScriptedProvider extends Provider {
  /** Responses not yet replayed. */
  readonly remaining: number;
  /**
   * The provider of the subagent delegated by the tool call `toolCallId`, replaying the script's
   * `children[toolCallId]` (the same provider on every call), or undefined when the script has none.
   */
  childProvider(toolCallId: string): ScriptedProvider | undefined;
}

function readScript(file: string): ModelScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ModelScriptError(
      'script_unreadable',
      file,
      `${file}: cannot read the script (${reason}). Check the path given to --script.`,
      undefined,
      error,
    );
  }
  return parseModelScript(text, file);
}

function toolCallsOf(script: ModelScript, responseIndex: number): ModelToolCall[] {
  const response = script.responses[responseIndex];
  return (response?.toolCalls ?? []).map((call, callIndex) => ({
    id: call.id ?? `call_${responseIndex + 1}_${callIndex + 1}`,
    name: call.name,
    argumentsText: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
}

/**
 * A provider that replays a script of model responses, one per request, whatever the request
 * says (for demos, tests and CI). The file is read and validated here, so a malformed script
 * fails before any request. After the last response every request gets an empty answer with
 * finish reason `stop`.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): ScriptedProvider {
  const script = 'file' in options ? readScript(options.file) : validateModelScript(options.script, 'script');
  const model = 'file' in options ? basename(options.file) : 'script';
  return replay(script, model);
}

function replay(script: ModelScript, model: string): ScriptedProvider {
  let next = 0;
  const children = new Map<string, ScriptedProvider>();
  return {
    name: 'scripted',
    model,
    // A script has no window: compaction would spend scripted answers on summaries it never meant.
    contextWindow: Number.MAX_SAFE_INTEGER,
    get remaining() {
      return script.responses.length - next;
    },
    childProvider(toolCallId: string) {
      const childScript = script.children?.[toolCallId];
      if (!childScript) return undefined;
      let child = children.get(toolCallId);
      if (!child) children.set(toolCallId, (child = replay(childScript, `${model}#${toolCallId}`)));
      return child;
    },
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
      if (request.signal?.aborted) {
        yield { type: 'finish', reason: 'cancelled' };
        return;
      }
      const index = next;
      next = Math.min(next + 1, script.responses.length);
      const response = script.responses[index];
      if (response === undefined) {
        yield { type: 'finish', reason: 'stop' };
        return;
      }
      if (response.text) yield { type: 'text-delta', text: response.text };
      const toolCalls = toolCallsOf(script, index);
      for (const toolCall of toolCalls) yield { type: 'tool-call', toolCall };
      if (response.usage) yield { type: 'usage', usage: response.usage };
      yield {
        type: 'finish',
        reason: response.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
        ...(response.model ? { model: response.model } : {}),
      };
    },
  };
}
