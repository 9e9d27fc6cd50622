import type { ToolProgress } from '@clawsmith/tool-protocol';

/** What the served call's progress is sent through: the SDK's `extra.sendNotification` of the request. */
type SendProgress = (notification: {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}) => Promise<void>;

/**
 * The progress token of a `tools/call`, when the client sent one (`params._meta.progressToken`,
 * a string or a number), else `undefined`: the client did not ask for progress.
 */
export function progressTokenOf(params: { readonly _meta?: unknown }): string | number | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const token = (meta as { progressToken?: unknown }).progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * Forwards a served call's progress to the client as `notifications/progress` with its token.
 * MCP requires the value to grow with each notification: a report that does not is not sent (its
 * message with it). A notification that cannot be sent (the client went away) is dropped.
 */
export function progressForwarder(token: string | number, send: SendProgress): (progress: ToolProgress) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (progress) => {
    if (!Number.isFinite(progress.progress) || progress.progress <= last) return;
    last = progress.progress;
    send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: progress.progress,
        ...(progress.total !== undefined ? { total: progress.total } : {}),
        ...(progress.message !== undefined ? { message: progress.message } : {}),
      },
    }).catch(() => undefined);
  };
}
