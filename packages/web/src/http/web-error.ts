import { undoConflictsOf } from '@clawsmith/core';
import { ClawsmithError } from '@clawsmith/tool-protocol';

/** The web API's own error codes, each with its HTTP status. */
export const WEB_ERROR_STATUS = Object.freeze({
  unauthorized: 401,
  sign_in_code_used: 401,
  sign_in_code_expired: 401,
  too_many_attempts: 429,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  route_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_json: 400,
  invalid_request: 400,
  invalid_id: 400,
  invalid_last_event_id: 400,
  too_many_streams: 503,
  approval_not_found: 404,
  approval_elsewhere: 409,
  provider_required: 409,
  turn_not_running: 409,
  workspace_not_offered: 400,
  internal_error: 500,
} as const);

/** A code of {@link WEB_ERROR_STATUS}. */
export type WebErrorCode = keyof typeof WEB_ERROR_STATUS;

/** Codes raised by core and the services, with the HTTP status the API answers them with. */
export const SERVICE_ERROR_STATUS: Readonly<Record<string, number>> = Object.freeze({
  session_not_found: 404,
  turn_not_found: 404,
  artifact_not_found: 404,
  checkpoint_not_found: 404,
  checkpoint_path_not_in_turn: 404,
  turn_in_progress: 409,
  turn_already_undone: 409,
  session_busy: 409,
  checkpoint_conflict: 409,
  checkpoint_already_undone: 409,
  checkpoint_turn_in_progress: 409,
  checkpoint_undo_in_progress: 409,
  checkpoint_missing_preimage: 409,
  checkpoint_blob_missing: 409,
  checkpoint_workspace_unavailable: 409,
  checkpoint_invalid_path: 400,
  invalid_artifact_range: 400,
  invalid_search_pattern: 400,
  // The session's workspace settings file cannot be used: the turn does not start until it is fixed.
  invalid_settings: 409,
});

/** An error the API answers with its code, a message that says what to do next, and optional details. */
export class WebError extends ClawsmithError {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: WebErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message);
    this.name = 'WebError';
    this.status = WEB_ERROR_STATUS[code];
    this.details = details;
  }
}

/** The JSON body of every error answer: `{ error: { code, message, ...details } }`. */
export interface ErrorBody {
  readonly error: { readonly code: string; readonly message: string; readonly [detail: string]: unknown };
}

/** Turns anything thrown by a route into a status and an {@link ErrorBody}; unknown failures say nothing internal. */
export function errorAnswer(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof WebError)
    return { status: error.status, body: { error: { ...error.details, code: error.code, message: error.message } } };
  if (ClawsmithError.isInstance(error)) {
    const status = SERVICE_ERROR_STATUS[error.code];
    if (status !== undefined) {
      const conflicts = undoConflictsOf(error);
      return {
        status,
        body: { error: { code: error.code, message: error.message, ...(conflicts ? { conflicts } : {}) } },
      };
    }
  }
  return {
    status: 500,
    body: {
      error: {
        code: 'internal_error',
        message: 'The server failed to answer this request; the server log has the details. Nothing was changed by it.',
      },
    },
  };
}
