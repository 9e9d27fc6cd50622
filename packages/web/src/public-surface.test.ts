import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/web public surface', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toEqual([
      'MAX_BODY_BYTES',
      'MAX_SEQUENCE',
      'ROUTES',
      'SECURITY_HEADERS',
      'SESSION_COOKIE',
      'WEB_ERROR_STATUS',
      'WebError',
      'approvalAnswerBodySchema',
      'artifactReadQuerySchema',
      'createBearerGuard',
      'createWebApp',
      'diffQuerySchema',
      'errorBodySchema',
      'eventPageQuerySchema',
      'eventPageSchema',
      'eventStreamQuerySchema',
      'forkBodySchema',
      'idSchema',
      'inferToolResult',
      'loginBodySchema',
      'messagePageQuerySchema',
      'newSessionBodySchema',
      'restoreBodySchema',
      'sessionListQuerySchema',
      'sessionPatchBodySchema',
      'sessionStatusSchema',
      'sessionSummarySchema',
      'startTurnBodySchema',
      'startWebServer',
    ]);
  });

  it('keeps its routes', () => {
    expect(api.ROUTES.map((route) => `${route.method} ${route.path}`)).toEqual([
      'GET /',
      'GET /assets/:file',
      'POST /api/login',
      'POST /api/logout',
      'GET /api/sessions',
      'GET /api/sessions/:sessionId',
      'PATCH /api/sessions/:sessionId',
      'DELETE /api/sessions/:sessionId',
      'POST /api/sessions/:sessionId/fork',
      'GET /api/sessions/:sessionId/messages',
      'GET /api/sessions/:sessionId/todos',
      'GET /api/sessions/:sessionId/events',
      'GET /api/sessions/:sessionId/events/stream',
      'GET /api/sessions/:sessionId/turns',
      'GET /api/sessions/:sessionId/turns/:turnId/diff',
      'POST /api/sessions/:sessionId/turns/:turnId/restore',
      'POST /api/sessions/:sessionId/turns',
      'POST /api/sessions/:sessionId/cancel',
      'GET /api/sessions/:sessionId/approvals',
      'POST /api/sessions/:sessionId/approvals/:approvalId',
      'GET /api/sessions/:sessionId/artifacts',
      'GET /api/sessions/:sessionId/artifacts/:artifactId',
      'GET /api/workspaces',
      'POST /api/sessions',
    ]);
  });

  it('keeps its error codes and their HTTP statuses', () => {
    expect(api.WEB_ERROR_STATUS).toEqual({
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
    });
    expect(api.MAX_BODY_BYTES).toBe(1_048_576);
    expect(api.SESSION_COOKIE).toBe('clawsmith_session');
  });
});
