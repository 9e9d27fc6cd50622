import type { Provider, ScriptedResponse } from '@clawsmith/providers';

/** The placeholder a demo tool call uses for the id of the latest artifact. */
export const ARTIFACT_PLACEHOLDER = '$ARTIFACT_ID';

/**
 * The scripted provider over all the demo's responses, with one addition: `$ARTIFACT_ID` in a
 * tool call's arguments becomes `latestArtifactId()`, the id a real model would copy from the
 * tool result it just read (artifact ids are random, so a script cannot know them).
 */
export async function createDemoProvider(
  responses: readonly ScriptedResponse[],
  latestArtifactId: () => string | undefined,
): Promise<Provider> {
  const { createScriptedProvider } = await import('@clawsmith/providers');
  const inner = createScriptedProvider({ script: { responses: [...responses] } });
  return {
    name: 'scripted',
    model: 'clawsmith-demo',
    // A script has no context window: compaction would spend the tour's answers on summaries.
    ...(inner.contextWindow !== undefined ? { contextWindow: inner.contextWindow } : {}),
    async *stream(request) {
      for await (const event of inner.stream(request)) {
        if (event.type === 'tool-call' && event.toolCall.argumentsText.includes(ARTIFACT_PLACEHOLDER)) {
          const id = latestArtifactId();
          yield id === undefined
            ? event
            : {
                ...event,
                toolCall: {
                  ...event.toolCall,
                  argumentsText: event.toolCall.argumentsText.replaceAll(ARTIFACT_PLACEHOLDER, id),
                },
              };
        } else yield event;
      }
    },
  };
}
