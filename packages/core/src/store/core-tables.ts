import type { Kysely } from 'kysely';
import type { DelegationKind, DelegationStatus } from '../subagents/delegation-store.js';
import type { SessionEventType, TodoItem, TurnRecord } from './session-records.js';

// Row shapes of the tables core owns, exactly as core-migrations.ts creates them. Timestamps are
// ISO text; integer columns are read through Number() where PostgreSQL could hand back a string.

/** A session: `activation_json` is the JSON array of its active deferred tools. */
export interface SessionRow {
  id: string;
  workspace_root: string;
  title: string | null;
  parent_session_id: string | null;
  forked_at_turn_id: string | null;
  activation_json: string;
  created_at: string;
  updated_at: string;
}

/** One model message of a session, at its 1-based position. */
export interface SessionMessageRow {
  session_id: string;
  position: number;
  turn_id: string | null;
  role: string;
  /** The whole `ModelMessage` as JSON. */
  message_json: string;
  created_at: string;
}

/** One event: the envelope in columns, the event's own fields as JSON. */
export interface SessionEventRow {
  session_id: string;
  sequence: number;
  type: SessionEventType;
  turn_id: string | null;
  payload_json: string;
  created_at: string;
}

/** One turn of a session. */
export interface SessionTurnRow {
  session_id: string;
  turn_id: string;
  ordinal: number;
  prompt: string;
  status: TurnRecord['status'];
  activation_json: string;
  owner_pid: number;
  /** The host that ran it (`null` on rows written before claims: judged by pid alone). */
  owner_host: string | null;
  /** The process instance (one per AgentCore) that ran it; `null` on rows written before claims. */
  owner_instance: string | null;
  started_at: string;
  completed_at: string | null;
}

/** A turn whose conversation a restore cut, as it was, and when. */
export interface SessionUndoneTurnRow extends SessionTurnRow {
  undone_at: string;
}

/** A call waiting for a person's approval. */
export interface SessionApprovalRow {
  id: string;
  session_id: string;
  turn_id: string;
  tool_call_id: string;
  tool_name: string;
  summary: string;
  risk: string;
  reason: string;
  created_at: string;
}

/** One item of a session's todo list, at its 1-based position. */
export interface SessionTodoRow {
  session_id: string;
  position: number;
  content: string;
  status: TodoItem['status'];
  updated_at: string;
}

/** A child session and what delegated it (see `subagents/delegation-store.ts`). */
export interface SessionDelegationRow {
  child_session_id: string;
  parent_session_id: string;
  parent_turn_id: string;
  parent_tool_call_id: string;
  kind: DelegationKind;
  status: DelegationStatus;
  prompt: string;
  result_json: string | null;
  notified_at: string | null;
  owner_pid: number;
  created_at: string;
  completed_at: string | null;
}

/**
 * Who runs a session's turn, until when: `expires_at` is epoch milliseconds in the database's
 * clock (a `bigint` column: a string on PostgreSQL), pushed on by the holder's heartbeat.
 */
export interface SessionClaimRow {
  session_id: string;
  owner_host: string;
  owner_boot_id: string;
  owner_pid: number;
  owner_instance: string;
  expires_at: number;
  claimed_at: string;
}

/** When a home-wide chore (`retention`) last ran, in epoch milliseconds. */
export interface CoreMaintenanceRow {
  name: string;
  /** A `bigint` column: a number on SQLite, a string on PostgreSQL. */
  last_run_at: number;
}

/** Core's tables, as Kysely sees them. */
export interface CoreTables {
  session: SessionRow;
  session_message: SessionMessageRow;
  session_event: SessionEventRow;
  session_turn: SessionTurnRow;
  session_undone_turn: SessionUndoneTurnRow;
  session_approval: SessionApprovalRow;
  session_todos: SessionTodoRow;
  session_delegation: SessionDelegationRow;
  session_claim: SessionClaimRow;
  core_maintenance: CoreMaintenanceRow;
}

/** The home database as core's code sees it: only core's tables, typed. */
export type CoreDatabase = Kysely<CoreTables>;
