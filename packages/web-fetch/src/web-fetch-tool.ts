import {
  assertAuthorized,
  defineTool,
  toolError,
  toolSuccess,
  type ToolDefinition,
  type ToolExecutionResult,
} from '@clawsmith/tool-protocol';
import { z } from 'zod';
import { fetchReadable, type ReadableFetch, type RedirectedFetch } from './fetch-readable.js';
import type { WebFetchOptions } from './web-fetch-options.js';

/** The input of `web_fetch`. */
export const webFetchInputSchema = z.object({
  url: z.string().min(1).max(8192).describe('The http or https URL to fetch.'),
});

/** The result code of a page whose server answered with an HTTP error status (4xx, 5xx). */
export const HTTP_ERROR_CODE = 'http_error';
/** The result code of a redirect to another host that was not followed. */
export const REDIRECT_TO_OTHER_HOST_CODE = 'redirect_to_other_host';

function pageContent(page: ReadableFetch): string {
  const lines = [`URL: ${page.url}`];
  if (page.redirects.length > 0) lines.push(`Redirected from: ${page.redirects.join(' -> ')}`);
  lines.push(`Status: ${page.status}${page.statusText ? ` ${page.statusText}` : ''}`);
  lines.push(`Content-Type: ${page.mediaType || '(none)'}`);
  if (page.title) lines.push(`Title: ${page.title}`);
  if (page.truncated)
    lines.push(
      `Note: the body was cut after ${page.bodyBytes} bytes (the fetch limit); the end of the page is missing.`,
    );
  return `${lines.join('\n')}\n\n${page.text}`;
}

function pageResult(page: ReadableFetch): ToolExecutionResult {
  const display = {
    kind: 'text' as const,
    title: `Fetched ${page.url}`,
    fields: [
      { label: 'status', value: String(page.status) },
      { label: 'content type', value: page.mediaType || '(none)' },
      { label: 'bytes', value: String(page.bodyBytes) },
      { label: 'address', value: page.address },
      ...(page.truncated ? [{ label: 'truncated', value: 'yes' }] : []),
    ],
  };
  const content = pageContent(page);
  if (page.status >= 400)
    return toolError(HTTP_ERROR_CODE, `The server answered ${page.status}.\n${content}`, { display });
  return toolSuccess(content, { display });
}

function redirectResult(redirect: RedirectedFetch): ToolExecutionResult {
  return toolError(
    REDIRECT_TO_OTHER_HOST_CODE,
    `${redirect.requestedUrl} redirected (${redirect.status}) to another host: ${redirect.location}\nIt was not followed; call web_fetch with that URL to fetch it.`,
    { display: { kind: 'text', title: `Redirected to ${redirect.location}` } },
  );
}

/**
 * Creates `web_fetch`: capability `network` (risk `execute`, asked by default), not
 * concurrency-safe. HTML comes back as Markdown, other text as text; refusals are thrown as
 * {@link WebFetchError}s.
 */
export function createWebFetchTool(
  options: WebFetchOptions = {},
): ToolDefinition<z.output<typeof webFetchInputSchema>, ToolExecutionResult> {
  return defineTool({
    name: 'web_fetch',
    description:
      'Fetch one http(s) URL and return its content as readable text: web pages as Markdown (the main article when one is found), other text as is. Binary files are refused. Private and local addresses are refused.',
    risk: 'execute',
    capabilities: ['network'],
    concurrencySafe: false,
    inputSchema: webFetchInputSchema,
    searchMetadata: { aliases: ['fetch url', 'read web page', 'http get'], tags: ['web', 'network', 'documentation'] },
    summarize: (input) => `web_fetch ${input.url}`,
    async execute(input, context) {
      assertAuthorized(context, 'web_fetch');
      const fetched = await fetchReadable(input.url, options, context.signal);
      return fetched.kind === 'redirect' ? redirectResult(fetched) : pageResult(fetched);
    },
  });
}
