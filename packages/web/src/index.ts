// Everything exported here is the public API of @clawsmith/web.

export type { WebServer, WebServerOptions } from './web-server.js';
export { startWebServer } from './web-server.js';
export { ROUTES, createWebApp } from './web-app.js';
export type { WebContext } from './web-context.js';

export type { ErrorBody, WebErrorCode } from './http/web-error.js';
export { WEB_ERROR_STATUS, WebError } from './http/web-error.js';
export { MAX_BODY_BYTES } from './http/parse-request.js';
export { SECURITY_HEADERS } from './security/security-headers.js';
export { SESSION_COOKIE } from './security/request-guard.js';
export type { BearerGuard, BearerGuardOptions, BearerGuardRequest } from './security/bearer-guard.js';
export { createBearerGuard } from './security/bearer-guard.js';
export { inferToolResult } from './transcript/tool-status.js';
export type { TranscriptMessage } from './transcript/tool-status.js';

export type {
  ApprovalAnswerBody,
  EventPage,
  NewSessionBody,
  RestoreBody,
  SessionStatus,
  SessionSummary,
} from './api/api-schemas.js';
export {
  MAX_SEQUENCE,
  approvalAnswerBodySchema,
  artifactReadQuerySchema,
  diffQuerySchema,
  errorBodySchema,
  eventPageQuerySchema,
  eventPageSchema,
  eventStreamQuerySchema,
  forkBodySchema,
  idSchema,
  loginBodySchema,
  messagePageQuerySchema,
  newSessionBodySchema,
  restoreBodySchema,
  sessionListQuerySchema,
  sessionPatchBodySchema,
  sessionStatusSchema,
  sessionSummarySchema,
  startTurnBodySchema,
} from './api/api-schemas.js';
